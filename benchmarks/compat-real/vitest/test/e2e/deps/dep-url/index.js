export const importMetaUrl = import.meta.url
