module.exports = 155;
