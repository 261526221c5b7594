module.exports = "pq-peer-user@1.0.0";
