module.exports = 156;
