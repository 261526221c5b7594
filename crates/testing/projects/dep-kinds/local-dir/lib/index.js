module.exports = require('@pq/plain');
