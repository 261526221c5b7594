module.exports = 57;
