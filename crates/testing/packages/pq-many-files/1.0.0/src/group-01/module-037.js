module.exports = 37;
