module.exports = 234;
