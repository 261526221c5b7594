module.exports = 180;
