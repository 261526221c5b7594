module.exports = 63;
