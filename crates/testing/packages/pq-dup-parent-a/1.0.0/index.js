module.exports = "pq-dup-parent-a@1.0.0";
