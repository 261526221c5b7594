module.exports = "@pq/native-darwin-arm64@1.0.0";
