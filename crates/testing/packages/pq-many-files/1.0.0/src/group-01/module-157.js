module.exports = 157;
