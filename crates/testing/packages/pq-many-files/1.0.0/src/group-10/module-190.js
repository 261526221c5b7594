module.exports = 190;
