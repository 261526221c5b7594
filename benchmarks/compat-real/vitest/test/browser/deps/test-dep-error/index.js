export function throwDepError() {
  throw new Error('this is test dependency error')
}
