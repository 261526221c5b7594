export * from 'virtual:test'
