module.exports = 101;
