module.exports = 36;
