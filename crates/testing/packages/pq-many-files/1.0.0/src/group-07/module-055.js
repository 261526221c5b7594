module.exports = 55;
