module.exports = 194;
