module.exports = 48;
