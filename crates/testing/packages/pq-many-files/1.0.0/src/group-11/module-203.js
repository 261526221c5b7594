module.exports = 203;
