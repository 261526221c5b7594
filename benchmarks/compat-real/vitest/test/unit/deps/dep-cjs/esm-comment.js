// import x from "x"
/** import x from "x" */
/**
 * import x from "x"
 */
module.exports = { test: 'ok' }
