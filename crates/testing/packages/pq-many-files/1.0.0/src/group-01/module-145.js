module.exports = 145;
