module.exports = 65;
