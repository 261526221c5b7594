module.exports = 'a';
