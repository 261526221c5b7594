module.exports = 7;
