module.exports = "@pq/native-linux-x64-musl@1.0.0";
