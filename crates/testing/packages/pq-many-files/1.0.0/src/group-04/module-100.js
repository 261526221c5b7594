module.exports = 100;
