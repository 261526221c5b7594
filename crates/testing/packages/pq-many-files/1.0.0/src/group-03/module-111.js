module.exports = 111;
