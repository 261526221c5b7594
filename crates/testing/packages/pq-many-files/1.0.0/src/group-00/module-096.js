module.exports = 96;
