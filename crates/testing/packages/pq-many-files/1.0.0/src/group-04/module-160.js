module.exports = 160;
