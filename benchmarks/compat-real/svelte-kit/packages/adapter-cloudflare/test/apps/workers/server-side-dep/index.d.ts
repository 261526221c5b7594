export function sum(a: number, b: number): number;
