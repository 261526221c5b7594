module.exports = 23;
