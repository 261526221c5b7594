module.exports = 238;
