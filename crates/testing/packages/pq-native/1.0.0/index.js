module.exports = "pq-native@1.0.0";
