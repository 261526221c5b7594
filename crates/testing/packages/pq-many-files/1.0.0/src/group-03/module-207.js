module.exports = 207;
