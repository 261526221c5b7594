module.exports = 79;
