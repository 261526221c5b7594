module.exports = "pq-many-files@1.0.0";
