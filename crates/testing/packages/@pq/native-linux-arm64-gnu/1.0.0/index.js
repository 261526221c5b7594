module.exports = "@pq/native-linux-arm64-gnu@1.0.0";
