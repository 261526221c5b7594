module.exports = 173;
