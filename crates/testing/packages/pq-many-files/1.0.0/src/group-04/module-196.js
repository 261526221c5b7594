module.exports = 196;
