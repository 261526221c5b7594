module.exports = 183;
