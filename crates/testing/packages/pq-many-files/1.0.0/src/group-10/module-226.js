module.exports = 226;
