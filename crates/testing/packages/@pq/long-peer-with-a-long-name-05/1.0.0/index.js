module.exports = "@pq/long-peer-with-a-long-name-05@1.0.0";
