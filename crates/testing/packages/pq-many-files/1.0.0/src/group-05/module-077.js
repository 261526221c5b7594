module.exports = 77;
