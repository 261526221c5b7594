export { create_key_set } from './jwks/remote.js';
