module.exports = 191;
