export default 'test-dep-simple'
