module.exports = "@pq/bin-map@1.0.0";
