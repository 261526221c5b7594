module.exports = 'c';
