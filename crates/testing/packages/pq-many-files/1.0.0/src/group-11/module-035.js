module.exports = 35;
