module.exports = 'pq-sh-schema';
