module.exports = 172;
