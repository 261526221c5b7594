module.exports = 215;
