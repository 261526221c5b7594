module.exports = 220;
