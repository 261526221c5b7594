module.exports = 125;
