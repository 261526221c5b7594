module.exports = 80;
