module.exports = 52;
