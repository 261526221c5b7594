module.exports = 219;
