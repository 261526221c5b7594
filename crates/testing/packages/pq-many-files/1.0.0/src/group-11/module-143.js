module.exports = 143;
