module.exports = 223;
