module.exports = 217;
