module.exports = 153;
