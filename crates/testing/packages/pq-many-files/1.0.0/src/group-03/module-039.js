module.exports = 39;
