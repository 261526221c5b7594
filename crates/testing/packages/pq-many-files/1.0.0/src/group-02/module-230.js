module.exports = 230;
