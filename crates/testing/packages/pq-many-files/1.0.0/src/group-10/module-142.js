module.exports = 142;
