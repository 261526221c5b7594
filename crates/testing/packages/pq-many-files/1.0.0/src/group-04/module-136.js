module.exports = 136;
