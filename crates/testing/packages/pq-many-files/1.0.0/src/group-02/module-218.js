module.exports = 218;
