module.exports = 78;
