export const external = typeof __vite_ssr_import__ === 'undefined'
