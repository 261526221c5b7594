module.exports = 132;
