module.exports = 56;
