module.exports = "@pq/long-peer-with-a-long-name-03@1.0.0";
