module.exports = 151;
