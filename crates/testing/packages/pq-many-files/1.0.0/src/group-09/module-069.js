module.exports = 69;
