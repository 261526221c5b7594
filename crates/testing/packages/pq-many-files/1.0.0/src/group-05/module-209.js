module.exports = 209;
