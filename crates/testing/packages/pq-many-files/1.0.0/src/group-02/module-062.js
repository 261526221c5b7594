module.exports = 62;
