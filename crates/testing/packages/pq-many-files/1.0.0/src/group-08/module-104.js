module.exports = 104;
