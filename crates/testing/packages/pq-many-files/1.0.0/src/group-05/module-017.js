module.exports = 17;
