module.exports = 126;
