// esm/index.js was detected as isValidNodeImport(id) = false
// event if package.json has type = module,
// which causes dual package hazard when other external esm import esm/index.js.
export const data = {}
