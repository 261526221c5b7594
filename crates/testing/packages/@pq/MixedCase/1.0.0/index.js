module.exports = "@pq/MixedCase@1.0.0";
