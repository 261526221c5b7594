module.exports = 59;
