module.exports = 'pq-sh-formats';
