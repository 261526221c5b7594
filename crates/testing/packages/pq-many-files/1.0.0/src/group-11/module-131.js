module.exports = 131;
