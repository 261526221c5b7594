module.exports = 170;
