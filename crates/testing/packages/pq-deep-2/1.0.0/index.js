module.exports = "pq-deep-2@1.0.0";
