module.exports = 165;
