module.exports = 'pq-sh-host';
