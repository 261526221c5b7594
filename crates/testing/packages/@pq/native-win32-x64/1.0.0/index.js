module.exports = "@pq/native-win32-x64@1.0.0";
