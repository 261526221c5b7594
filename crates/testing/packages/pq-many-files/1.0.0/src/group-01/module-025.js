module.exports = 25;
