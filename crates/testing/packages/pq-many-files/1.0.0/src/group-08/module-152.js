module.exports = 152;
