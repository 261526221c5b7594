module.exports = 224;
