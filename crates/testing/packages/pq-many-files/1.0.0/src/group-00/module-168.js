module.exports = 168;
