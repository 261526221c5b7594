module.exports = "pq-bin-dir@1.0.0";
