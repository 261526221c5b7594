module.exports = 85;
