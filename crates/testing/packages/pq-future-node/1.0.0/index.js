module.exports = "pq-future-node";
