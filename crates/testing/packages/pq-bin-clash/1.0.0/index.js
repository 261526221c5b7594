module.exports = "pq-bin-clash@1.0.0";
