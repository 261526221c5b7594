module.exports = 133;
