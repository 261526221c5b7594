module.exports = 75;
