module.exports = 186;
