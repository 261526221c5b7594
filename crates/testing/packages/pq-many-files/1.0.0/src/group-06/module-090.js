module.exports = 90;
