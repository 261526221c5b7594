module.exports = 239;
