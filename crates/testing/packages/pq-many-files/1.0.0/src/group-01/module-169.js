module.exports = 169;
