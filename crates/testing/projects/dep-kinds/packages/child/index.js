module.exports = 'child';
