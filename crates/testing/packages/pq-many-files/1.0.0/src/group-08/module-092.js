module.exports = 92;
