exports.__esModule = false
exports.test = 'hello'
