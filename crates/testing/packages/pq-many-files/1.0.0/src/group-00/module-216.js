module.exports = 216;
