module.exports = "pq-bin-string@1.0.0";
