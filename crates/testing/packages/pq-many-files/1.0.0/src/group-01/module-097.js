module.exports = 97;
