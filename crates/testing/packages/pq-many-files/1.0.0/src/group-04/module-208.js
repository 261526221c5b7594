module.exports = 208;
