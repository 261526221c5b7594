module.exports = 114;
