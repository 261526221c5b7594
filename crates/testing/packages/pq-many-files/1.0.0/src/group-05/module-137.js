module.exports = 137;
