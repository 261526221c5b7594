module.exports = 14;
