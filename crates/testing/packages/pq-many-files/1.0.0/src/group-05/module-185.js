module.exports = 185;
