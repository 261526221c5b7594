module.exports = "pq-deprecated@1.0.0";
