module.exports = 28;
