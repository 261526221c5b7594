module.exports = 232;
