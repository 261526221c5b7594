module.exports = "@pq/deep-leaf@1.0.0";
