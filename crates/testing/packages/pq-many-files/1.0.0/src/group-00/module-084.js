module.exports = 84;
