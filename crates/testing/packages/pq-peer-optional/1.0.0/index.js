module.exports = "pq-peer-optional@1.0.0";
