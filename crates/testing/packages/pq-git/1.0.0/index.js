module.exports = 'pq-git';
