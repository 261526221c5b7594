module.exports = 159;
