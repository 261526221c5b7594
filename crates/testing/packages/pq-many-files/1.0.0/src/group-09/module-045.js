module.exports = 45;
