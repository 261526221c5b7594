module.exports = "pq-deep-3@1.0.0";
