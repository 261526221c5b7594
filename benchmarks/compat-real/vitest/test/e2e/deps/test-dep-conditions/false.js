export default false
