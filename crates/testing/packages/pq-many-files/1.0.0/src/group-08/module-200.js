module.exports = 200;
