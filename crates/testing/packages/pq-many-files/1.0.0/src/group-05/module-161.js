module.exports = 161;
