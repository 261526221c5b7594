module.exports = 30;
