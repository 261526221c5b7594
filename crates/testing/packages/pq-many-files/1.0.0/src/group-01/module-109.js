module.exports = 109;
