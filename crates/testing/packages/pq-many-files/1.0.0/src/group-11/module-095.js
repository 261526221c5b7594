module.exports = 95;
