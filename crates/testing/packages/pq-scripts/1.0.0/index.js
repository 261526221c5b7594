module.exports = "pq-scripts@1.0.0";
