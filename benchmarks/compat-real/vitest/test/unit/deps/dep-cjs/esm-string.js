module.exports = { test: ' import.meta' }
