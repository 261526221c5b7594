export function lib(): string
