module.exports = 6;
