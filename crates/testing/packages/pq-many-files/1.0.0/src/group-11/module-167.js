module.exports = 167;
