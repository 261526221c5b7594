module.exports = 32;
