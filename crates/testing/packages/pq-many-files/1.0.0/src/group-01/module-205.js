module.exports = 205;
