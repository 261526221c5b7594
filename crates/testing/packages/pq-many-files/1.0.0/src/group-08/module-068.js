module.exports = 68;
