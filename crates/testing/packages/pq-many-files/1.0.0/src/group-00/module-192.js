module.exports = 192;
