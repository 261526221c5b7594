export const format = 'esm';
