module.exports = 93;
