module.exports = 41;
