module.exports = 123;
