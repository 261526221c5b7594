module.exports = 15;
