module.exports = 50;
