module.exports = 110;
