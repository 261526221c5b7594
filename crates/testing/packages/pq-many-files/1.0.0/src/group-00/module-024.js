module.exports = 24;
