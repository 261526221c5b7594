module.exports = 199;
