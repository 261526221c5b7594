module.exports = 227;
