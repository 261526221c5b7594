module.exports = 91;
