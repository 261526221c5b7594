module.exports = 171;
