export function create_key_set(url) {
	return `key set for ${url}`;
}
