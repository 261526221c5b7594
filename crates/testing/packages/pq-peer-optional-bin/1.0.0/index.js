module.exports = 'pq-peer-optional-bin';
