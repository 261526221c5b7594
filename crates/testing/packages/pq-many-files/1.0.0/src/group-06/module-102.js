module.exports = 102;
