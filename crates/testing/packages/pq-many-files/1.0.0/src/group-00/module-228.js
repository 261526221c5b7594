module.exports = 228;
