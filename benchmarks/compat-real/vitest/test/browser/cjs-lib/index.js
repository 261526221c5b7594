module.exports = {
  a: 'a',
  b: 'b',
  object: {
    h: 'h',
  },
}
