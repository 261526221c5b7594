module.exports = 'b';
