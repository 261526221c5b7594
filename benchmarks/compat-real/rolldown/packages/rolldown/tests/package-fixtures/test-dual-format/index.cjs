module.exports = { format: 'cjs' };
