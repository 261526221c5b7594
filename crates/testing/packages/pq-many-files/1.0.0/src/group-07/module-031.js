module.exports = 31;
