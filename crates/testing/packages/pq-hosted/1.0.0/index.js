module.exports = 'pq-hosted';
