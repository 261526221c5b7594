module.exports = 118;
