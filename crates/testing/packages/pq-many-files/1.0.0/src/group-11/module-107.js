module.exports = 107;
