module.exports = 129;
