module.exports = 11;
