module.exports = 88;
