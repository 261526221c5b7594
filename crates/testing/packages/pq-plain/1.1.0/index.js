module.exports = "pq-plain@1.1.0";
