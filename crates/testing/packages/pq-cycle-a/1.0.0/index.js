module.exports = "pq-cycle-a@1.0.0";
