module.exports = 74;
