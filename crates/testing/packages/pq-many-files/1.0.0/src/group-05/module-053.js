module.exports = 53;
