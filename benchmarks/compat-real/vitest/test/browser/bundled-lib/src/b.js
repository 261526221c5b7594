export function b() {
  throw new Error('error from b')
}
