module.exports = 'pq-sh-keywords';
