module.exports = 225;
