module.exports = 211;
