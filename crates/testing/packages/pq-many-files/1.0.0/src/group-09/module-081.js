module.exports = 81;
