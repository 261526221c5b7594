// Runs a pnpmfile's hooks for pacquet: one JSON request per stdin line,
// one JSON answer per stdout line (docs/pnpmfile.md).
'use strict'
const path = require('node:path')
const { pathToFileURL } = require('node:url')
const readline = require('node:readline')

const file = process.argv[1]
// Standard output carries the answers alone: what the pnpmfile prints
// (console.log in a hook, a write to stdout) goes to standard error.
const write = process.stdout.write.bind(process.stdout)
process.stdout.write = (chunk, ...rest) => process.stderr.write(chunk, ...rest)
const send = (value) => write(JSON.stringify(value) + '\n')
const message = (err) => (err && err.message !== undefined ? String(err.message) : String(err))

async function load () {
  if (file.endsWith('.mjs')) {
    return import(pathToFileURL(path.resolve(file)).href)
  }
  return require(path.resolve(file))
}

const GROUPS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']

async function readPackage (hook, pkg) {
  for (const group of GROUPS) pkg[group] = pkg[group] ?? {}
  const logs = []
  const next = await hook(pkg, { log: (msg) => logs.push(String(msg)) })
  if (!next) {
    return { bad: 'readPackage hook did not return a package manifest object.', logs }
  }
  for (const group of GROUPS) {
    if (next[group] != null && (typeof next[group] !== 'object' || Array.isArray(next[group]))) {
      return { bad: `readPackage hook returned package manifest object's property '${group}' must be an object.`, logs }
    }
  }
  return { pkg: next, logs }
}

load().then((mod) => {
  const hooks = (mod && (mod.hooks ?? (mod.default && mod.default.hooks))) ?? {}
  if (hooks.readPackage != null && typeof hooks.readPackage !== 'function') {
    send({ failed: 'hooks.readPackage should be a function' })
    return
  }
  const extra = mod ? Object.keys(mod).filter((k) => k !== 'hooks' && k !== 'default' && mod[k] != null) : []
  send({ hooks: Object.keys(hooks).filter((k) => hooks[k] != null), exports: extra, exported: mod !== undefined })
  const lines = readline.createInterface({ input: process.stdin })
  let queue = Promise.resolve()
  lines.on('line', (line) => {
    queue = queue.then(async () => {
      const request = JSON.parse(line)
      try {
        send(await readPackage(hooks.readPackage, request.pkg))
      } catch (err) {
        send({ failed: message(err) })
      }
    })
  })
}, (err) => {
  send({ failed: message(err) })
})
