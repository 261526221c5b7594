module.exports = 73;
