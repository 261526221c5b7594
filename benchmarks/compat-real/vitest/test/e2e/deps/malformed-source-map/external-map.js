export default function testMalformedSourceMap() {
  throw new Error('test error')
}

//# sourceMappingURL=external-map.js.map
