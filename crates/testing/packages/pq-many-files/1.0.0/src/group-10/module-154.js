module.exports = 154;
