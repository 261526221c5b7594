module.exports = 134;
