module.exports = 237;
