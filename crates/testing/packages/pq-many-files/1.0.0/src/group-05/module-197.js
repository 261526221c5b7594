module.exports = 197;
