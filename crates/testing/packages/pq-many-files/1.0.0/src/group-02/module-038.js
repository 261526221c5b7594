module.exports = 38;
