module.exports = 21;
