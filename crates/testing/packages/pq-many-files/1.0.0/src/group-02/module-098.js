module.exports = 98;
