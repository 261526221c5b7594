module.exports = 108;
