module.exports = 188;
