module.exports = 178;
