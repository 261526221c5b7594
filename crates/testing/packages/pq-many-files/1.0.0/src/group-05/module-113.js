module.exports = 113;
