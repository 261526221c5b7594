module.exports = "@pq/long-peer-with-a-long-name-02@1.0.0";
