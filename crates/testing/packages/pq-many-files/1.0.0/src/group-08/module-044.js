module.exports = 44;
