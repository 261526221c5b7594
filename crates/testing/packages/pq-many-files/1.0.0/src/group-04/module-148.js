module.exports = 148;
