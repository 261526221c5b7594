module.exports = 86;
