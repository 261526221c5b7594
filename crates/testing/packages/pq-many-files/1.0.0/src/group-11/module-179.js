module.exports = 179;
