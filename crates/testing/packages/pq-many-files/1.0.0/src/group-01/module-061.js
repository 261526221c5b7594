module.exports = 61;
