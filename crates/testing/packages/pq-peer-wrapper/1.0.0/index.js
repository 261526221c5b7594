module.exports = "pq-peer-wrapper@1.0.0";
