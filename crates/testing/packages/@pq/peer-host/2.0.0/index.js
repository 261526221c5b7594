module.exports = "@pq/peer-host@2.0.0";
