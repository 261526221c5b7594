exports.__esModule = true
exports.test = 'hello'
