module.exports = 140;
