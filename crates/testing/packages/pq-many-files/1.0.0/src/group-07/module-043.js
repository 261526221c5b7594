module.exports = 43;
