module.exports = 162;
