module.exports = 235;
