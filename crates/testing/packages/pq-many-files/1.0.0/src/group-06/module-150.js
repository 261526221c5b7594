module.exports = 150;
