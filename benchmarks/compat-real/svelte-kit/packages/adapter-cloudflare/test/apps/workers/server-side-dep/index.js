/** @type {import('./index.js').sum} */
export function sum(a, b) {
	return a + b;
}
