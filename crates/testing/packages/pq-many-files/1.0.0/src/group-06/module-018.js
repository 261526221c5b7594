module.exports = 18;
