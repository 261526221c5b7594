module.exports = 51;
