module.exports = 'pq-uses-bin-sh';
