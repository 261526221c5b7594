module.exports = 112;
