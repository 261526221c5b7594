export default true
