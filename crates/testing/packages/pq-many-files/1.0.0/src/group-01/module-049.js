module.exports = 49;
