#!/usr/bin/env node
// Copies what installing a real pnpm workspace reads out of one commit of
// its git repository into benchmarks/compat-real/<name>/, so the corpus is
// pinned and needs no network to run:
//
//   node tasks/compat-real-import.mjs <git-dir> <commit> <name> [<repo-url>]
//
// Taken: the lockfile, pnpm-workspace.yaml, .npmrc (registry and auth lines
// dropped: the run sets its own registry), every importer's package.json
// and the files its `bin` names, the patch files of `patchedDependencies`,
// and every `file:`/`link:` directory the lockfile installs from, whole.
// The root manifest loses `packageManager` (pnpm 12 would switch to that
// version). SOURCE records where it came from.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const [gitDir, commit, name, url] = process.argv.slice(2)
if (!gitDir || !commit || !name) {
  console.error('usage: compat-real-import.mjs <git-dir> <commit> <name> [<repo-url>]')
  process.exit(1)
}
const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const out = path.join(repo, 'benchmarks/compat-real', name)

const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 1 << 30 })
const show = (file) => {
  try {
    return execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${file}`], {
      maxBuffer: 1 << 30,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
  } catch {
    return null
  }
}
const write = (file, data) => {
  const dest = path.join(out, file)
  fs.mkdirSync(path.dirname(dest), { recursive: true })
  fs.writeFileSync(dest, data)
}
const copy = (file) => {
  const data = show(file)
  if (data == null) return false
  write(file, data)
  return true
}
// Every file under `dir` at the commit, with its mode (symlinks as such).
const copyDir = (dir) => {
  const listing = git('ls-tree', '-r', '-z', commit, '--', dir).toString()
  for (const entry of listing.split('\0').filter(Boolean)) {
    const [meta, file] = entry.split('\t')
    const [mode, type] = meta.split(' ')
    if (type !== 'blob') continue
    const data = show(file)
    const dest = path.join(out, file)
    fs.mkdirSync(path.dirname(dest), { recursive: true })
    if (mode === '120000') {
      fs.symlinkSync(data.toString(), dest)
    } else {
      fs.writeFileSync(dest, data, { mode: mode === '100755' ? 0o755 : 0o644 })
    }
  }
}

fs.rmSync(out, { recursive: true, force: true })
const lockfile = show('pnpm-lock.yaml')?.toString()
if (lockfile == null) {
  console.error(`${commit} has no pnpm-lock.yaml at the repository root`)
  process.exit(1)
}
write('pnpm-lock.yaml', lockfile)
copy('pnpm-workspace.yaml')
const npmrc = show('.npmrc')
if (npmrc != null) {
  const kept = npmrc
    .toString()
    .split('\n')
    .filter((line) => !/^\s*(@[^:]+:)?registry\s*=|_auth|_authToken|^\s*\/\//.test(line))
  write('.npmrc', kept.join('\n'))
}

// Importer ids: the keys under `importers:` (two-space indent).
const importers = []
const localDirs = new Set()
let section = ''
let importer = null
for (const line of lockfile.split('\n')) {
  const top = /^(\S[^:]*):/.exec(line)
  if (top) {
    section = top[1]
    continue
  }
  if (section === 'importers') {
    const key = /^ {2}(\S.*?):( \{\})?$/.exec(line)
    if (key) {
      importer = key[1].replace(/^'(.*)'$/, '$1')
      importers.push(importer)
      continue
    }
    const ref = /^ {8}version: (?:link|file):(.+)$/.exec(line)
    if (ref && importer != null) {
      localDirs.add(path.posix.normalize(path.posix.join(importer, ref[1].replace(/^'(.*)'$/, '$1'))))
    }
  }
  if (section === 'packages') {
    const dir = /resolution: \{directory: ([^,}]+)/.exec(line)
    if (dir) localDirs.add(path.posix.normalize(dir[1].replace(/^'(.*)'$/, '$1')))
  }
}

const patchFiles = new Set()
for (const source of [lockfile, show('pnpm-workspace.yaml')?.toString() ?? '']) {
  for (const m of source.matchAll(/^\s+(?:path: )?['"]?([^'"\s:]*patches\/[^'"\s]+\.patch)/gm)) {
    patchFiles.add(m[1])
  }
  for (const m of source.matchAll(/:\s*['"]?([^'"\s]+\.patch)['"]?\s*$/gm)) {
    patchFiles.add(m[1])
  }
}

const manifests = []
for (const id of importers) {
  const file = id === '.' ? 'package.json' : `${id}/package.json`
  const data = show(file)
  if (data == null) continue
  let manifest = {}
  try {
    manifest = JSON.parse(data.toString())
  } catch {
    // Some test fixtures ship a broken manifest on purpose: keep it as is.
  }
  if (id === '.') {
    delete manifest.packageManager
    write(file, JSON.stringify(manifest, null, 2) + '\n')
  } else {
    write(file, data)
  }
  manifests.push(file)
  const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {})
  for (const bin of bins) copy(path.posix.normalize(path.posix.join(id, bin)))
}
let dirs = 0
for (const dir of localDirs) {
  if (dir.startsWith('..') || importers.includes(dir)) continue
  copyDir(dir)
  dirs++
}
let patches = 0
for (const file of patchFiles) patches += copy(file) ? 1 : 0

write(
  'SOURCE',
  `repository: ${url ?? '(unknown)'}\ncommit: ${commit}\nimported: ${new Date().toISOString().slice(0, 10)}\n`
)
console.log(
  `${name}: ${importers.length} importers (${manifests.length} manifests), ${dirs} local dirs, ${patches} patches`
)
