module.exports = 166;
