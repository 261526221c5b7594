module.exports = "pq-exec-file@1.0.0";
