module.exports = 206;
