module.exports = "pq-dup-parent-b@1.0.0";
