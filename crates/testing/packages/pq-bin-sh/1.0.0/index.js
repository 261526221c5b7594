module.exports = "pq-bin-sh@1.0.0";
