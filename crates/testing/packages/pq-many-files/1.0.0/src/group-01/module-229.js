module.exports = 229;
