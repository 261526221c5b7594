module.exports = 115;
