module.exports = 46;
