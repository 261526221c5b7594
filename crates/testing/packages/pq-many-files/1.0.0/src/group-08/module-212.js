module.exports = 212;
