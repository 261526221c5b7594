module.exports = 'local';
