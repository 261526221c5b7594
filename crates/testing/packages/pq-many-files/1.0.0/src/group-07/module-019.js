module.exports = 19;
