module.exports = "pq-skills";
