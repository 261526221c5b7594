module.exports = 89;
