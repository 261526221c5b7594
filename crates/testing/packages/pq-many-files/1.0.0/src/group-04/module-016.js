module.exports = 16;
