module.exports = 64;
