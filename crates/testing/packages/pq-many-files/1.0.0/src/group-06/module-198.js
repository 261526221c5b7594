module.exports = 198;
