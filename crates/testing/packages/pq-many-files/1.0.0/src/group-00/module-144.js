module.exports = 144;
