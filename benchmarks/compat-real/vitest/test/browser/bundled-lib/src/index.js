import { a } from './a.js'
import { b } from './b.js'

export function index() {
  return a() + b()
}
