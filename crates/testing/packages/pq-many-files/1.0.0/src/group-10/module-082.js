module.exports = 82;
