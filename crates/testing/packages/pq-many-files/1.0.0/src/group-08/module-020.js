module.exports = 20;
