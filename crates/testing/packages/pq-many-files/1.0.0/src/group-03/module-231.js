module.exports = 231;
