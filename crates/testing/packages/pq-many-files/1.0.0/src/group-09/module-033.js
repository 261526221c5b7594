module.exports = 33;
