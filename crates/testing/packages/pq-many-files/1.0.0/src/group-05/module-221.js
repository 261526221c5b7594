module.exports = 221;
