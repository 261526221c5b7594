module.exports = 184;
