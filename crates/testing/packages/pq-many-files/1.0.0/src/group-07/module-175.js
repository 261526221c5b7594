module.exports = 175;
