module.exports = 76;
