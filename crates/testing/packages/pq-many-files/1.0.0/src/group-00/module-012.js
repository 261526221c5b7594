module.exports = 12;
