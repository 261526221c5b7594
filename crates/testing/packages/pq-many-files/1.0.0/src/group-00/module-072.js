module.exports = 72;
