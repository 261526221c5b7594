module.exports = 47;
