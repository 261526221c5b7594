module.exports = 158;
