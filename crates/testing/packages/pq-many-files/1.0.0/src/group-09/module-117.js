module.exports = 117;
