module.exports = 40;
