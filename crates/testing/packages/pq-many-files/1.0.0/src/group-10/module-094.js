module.exports = 94;
