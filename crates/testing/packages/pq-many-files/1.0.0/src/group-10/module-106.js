module.exports = 106;
