module.exports = "pq-many-peers@1.0.0";
