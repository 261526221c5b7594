module.exports = 189;
