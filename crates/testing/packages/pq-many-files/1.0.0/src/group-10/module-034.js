module.exports = 34;
