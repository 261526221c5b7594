module.exports = 13;
