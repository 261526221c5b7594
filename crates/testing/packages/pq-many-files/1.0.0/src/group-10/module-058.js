module.exports = 58;
