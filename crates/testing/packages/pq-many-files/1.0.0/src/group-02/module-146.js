module.exports = 146;
