module.exports = 67;
