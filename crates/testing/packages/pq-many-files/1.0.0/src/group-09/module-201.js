module.exports = 201;
