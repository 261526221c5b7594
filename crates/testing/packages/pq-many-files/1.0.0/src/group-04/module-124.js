module.exports = 124;
