module.exports = 99;
