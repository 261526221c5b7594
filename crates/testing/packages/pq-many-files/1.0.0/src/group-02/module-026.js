module.exports = 26;
