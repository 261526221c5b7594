module.exports = 120;
