module.exports = 54;
