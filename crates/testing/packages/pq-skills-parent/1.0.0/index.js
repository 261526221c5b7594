module.exports = require("pq-skills");
