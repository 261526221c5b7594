// Lets `import` of a bare name fall back to the NODE_PATH directories, as
// `require` does: packages in the global virtual store import names they
// do not declare, found only through the project's hoisting directories.
// Node.js 22.15+ runs `registerHooks` in this thread; older ones get the
// same hook as a module for `register`.
const hooks = `
import { delimiter, extname } from 'node:path'
import { pathToFileURL } from 'node:url'
const lookupDirs = (process.env.NODE_PATH || '').split(delimiter).filter((dir) => dir !== '')
const bare = (name) => !/^[./#]/.test(name) && !name.includes(':')
// With a hook in place Node no longer guesses the format of an entry point
// without a known extension (a .bin target): such a file is CommonJS.
export const withFormat = (found, context) => {
  if (context.parentURL !== undefined || found.format != null || !found.url.startsWith('file:')) return found
  return ['', '.js'].includes(extname(new URL(found.url).pathname)) ? found : { ...found, format: 'commonjs' }
}
export const candidates = (name, context, failure) => {
  if (failure?.code !== 'ERR_MODULE_NOT_FOUND' || !bare(name)) throw failure
  return lookupDirs.map((dir) => ({ ...context, parentURL: pathToFileURL(dir + '/index.js').href }))
}
export const notFound = (error) => { if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error }
export async function resolve (name, context, resolveNext) {
  try {
    return withFormat(await resolveNext(name, context), context)
  } catch (failure) {
    for (const from of candidates(name, context, failure)) {
      try { return await resolveNext(name, from) } catch (error) { notFound(error) }
    }
    throw failure
  }
}
`
const url = 'data:text/javascript,' + encodeURIComponent(hooks)
const nodeModule = await import('node:module')
if (nodeModule.registerHooks) {
  const { withFormat, candidates, notFound } = await import(url)
  nodeModule.registerHooks({
    resolve (name, context, resolveNext) {
      try {
        return withFormat(resolveNext(name, context), context)
      } catch (failure) {
        for (const from of candidates(name, context, failure)) {
          try { return resolveNext(name, from) } catch (error) { notFound(error) }
        }
        throw failure
      }
    },
  })
} else if (nodeModule.register) {
  nodeModule.register(url)
}
