module.exports = 213;
