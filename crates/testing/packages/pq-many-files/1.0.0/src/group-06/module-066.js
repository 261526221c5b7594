module.exports = 66;
