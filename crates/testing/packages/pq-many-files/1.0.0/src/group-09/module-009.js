module.exports = 9;
