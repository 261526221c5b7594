module.exports = "@pq/long-peer-with-a-long-name-06@1.0.0";
