module.exports = 176;
