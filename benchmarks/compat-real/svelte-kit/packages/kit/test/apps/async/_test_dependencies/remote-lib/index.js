export { lib_echo } from './data.remote.js';
