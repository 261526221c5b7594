module.exports = 'pq-wasm-core';
