module.exports = 204;
