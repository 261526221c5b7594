module.exports = 147;
