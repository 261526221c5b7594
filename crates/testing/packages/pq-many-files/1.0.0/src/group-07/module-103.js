module.exports = 103;
