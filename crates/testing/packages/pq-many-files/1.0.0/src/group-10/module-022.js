module.exports = 22;
