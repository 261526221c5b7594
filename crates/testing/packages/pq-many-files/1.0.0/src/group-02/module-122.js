module.exports = 122;
