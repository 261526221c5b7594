module.exports = 202;
