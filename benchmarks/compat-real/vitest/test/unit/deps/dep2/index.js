export { data } from '@vitest/test-dep1'
