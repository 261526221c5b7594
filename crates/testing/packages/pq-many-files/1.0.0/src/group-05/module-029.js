module.exports = 29;
