module.exports = 181;
