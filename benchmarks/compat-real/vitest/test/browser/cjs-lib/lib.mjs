export function lib() {
  return 'original'
}
