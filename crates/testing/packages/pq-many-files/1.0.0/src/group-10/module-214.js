module.exports = 214;
