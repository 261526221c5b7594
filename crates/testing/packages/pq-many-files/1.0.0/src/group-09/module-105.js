module.exports = 105;
