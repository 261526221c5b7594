module.exports = 'pq-wasm-wrap';
