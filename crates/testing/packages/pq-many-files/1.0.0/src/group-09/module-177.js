module.exports = 177;
