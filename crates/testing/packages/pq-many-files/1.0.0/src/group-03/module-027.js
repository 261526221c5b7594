module.exports = 27;
