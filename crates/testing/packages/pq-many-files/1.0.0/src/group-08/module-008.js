module.exports = 8;
