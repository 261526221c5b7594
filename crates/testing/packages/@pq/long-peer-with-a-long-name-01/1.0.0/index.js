module.exports = "@pq/long-peer-with-a-long-name-01@1.0.0";
