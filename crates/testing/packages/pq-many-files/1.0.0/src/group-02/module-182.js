module.exports = 182;
