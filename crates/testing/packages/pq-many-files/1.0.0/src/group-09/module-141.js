module.exports = 141;
