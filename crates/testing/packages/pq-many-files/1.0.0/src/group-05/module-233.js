module.exports = 233;
