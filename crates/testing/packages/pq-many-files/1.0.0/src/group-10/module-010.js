module.exports = 10;
