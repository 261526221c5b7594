module.exports = 'pq-wasm-host';
