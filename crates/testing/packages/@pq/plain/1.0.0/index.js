module.exports = "@pq/plain@1.0.0";
