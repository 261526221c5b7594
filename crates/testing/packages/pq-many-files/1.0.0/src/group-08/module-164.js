module.exports = 164;
