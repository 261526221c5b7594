module.exports = 121;
