module.exports = 195;
