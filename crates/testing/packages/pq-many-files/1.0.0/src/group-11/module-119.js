module.exports = 119;
