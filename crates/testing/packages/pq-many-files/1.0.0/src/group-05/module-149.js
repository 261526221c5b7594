module.exports = 149;
