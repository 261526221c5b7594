module.exports = 128;
