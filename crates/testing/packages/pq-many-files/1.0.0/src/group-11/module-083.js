module.exports = 83;
