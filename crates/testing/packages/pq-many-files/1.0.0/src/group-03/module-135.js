module.exports = 135;
