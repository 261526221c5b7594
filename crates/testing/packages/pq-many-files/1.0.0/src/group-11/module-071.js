module.exports = 71;
