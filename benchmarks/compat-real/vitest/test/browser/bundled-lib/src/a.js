export function a() {
  return 'a'
}
