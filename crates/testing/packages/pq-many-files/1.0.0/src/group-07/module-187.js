module.exports = 187;
