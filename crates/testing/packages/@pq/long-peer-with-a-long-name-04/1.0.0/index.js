module.exports = "@pq/long-peer-with-a-long-name-04@1.0.0";
