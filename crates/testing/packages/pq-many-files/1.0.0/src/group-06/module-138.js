module.exports = 138;
