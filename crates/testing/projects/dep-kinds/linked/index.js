module.exports = 'linked';
