module.exports = "pq-dup@1.0.0";
