module.exports = 130;
