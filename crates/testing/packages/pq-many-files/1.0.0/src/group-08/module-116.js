module.exports = 116;
