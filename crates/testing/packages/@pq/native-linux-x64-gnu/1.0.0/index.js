module.exports = "@pq/native-linux-x64-gnu@1.0.0";
