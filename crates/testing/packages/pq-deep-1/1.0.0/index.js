module.exports = "pq-deep-1@1.0.0";
