export default 'test';
