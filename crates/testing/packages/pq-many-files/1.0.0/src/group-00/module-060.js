module.exports = 60;
