module.exports = 127;
