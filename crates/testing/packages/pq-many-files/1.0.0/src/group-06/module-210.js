module.exports = 210;
