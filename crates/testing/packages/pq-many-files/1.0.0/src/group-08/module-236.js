module.exports = 236;
