module.exports = 87;
