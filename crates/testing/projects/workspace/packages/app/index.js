module.exports = require('@pq-ws/lib');
