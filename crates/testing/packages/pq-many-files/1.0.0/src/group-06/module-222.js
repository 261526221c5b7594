module.exports = 222;
