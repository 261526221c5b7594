export type NonExported = true
