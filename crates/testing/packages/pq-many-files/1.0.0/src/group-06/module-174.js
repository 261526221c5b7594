module.exports = 174;
