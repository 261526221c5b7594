module.exports = "pq-cycle-b@1.0.0";
