module.exports = "pq-deep-4@1.0.0";
