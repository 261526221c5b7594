module.exports = 'pq-peer-bin';
