module.exports = 193;
