export default 'test-dep-simple2'
