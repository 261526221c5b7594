module.exports = 'pq-sh-core';
