module.exports = "@pq/peer-host@1.0.0";
