module.exports = "pq-dup@2.0.0";
