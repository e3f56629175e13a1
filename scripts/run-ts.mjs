// Runs a TypeScript entry point: `node scripts/run-ts.mjs <entry.ts> [args...]`.
//
// A development tool: the entry and the shop's own modules are bundled by esbuild into one ES
// module (esbuild-options.mjs, as the production bundle is); packages stay external and load
// through Node's own loader (no module hooks thread, no per-file transpiling). Production runs
// the prebuilt bundle in dist/ instead (build-bundle.mjs).
//
// Start it with `node --conditions=production`: Lexical's packages (Payload's rich text) resolve
// by default to `*.node.mjs` files that pick their build with a top-level `await import()`, and
// Node 20's loader deadlocks on that graph in most starts on a loaded machine (the process hangs
// in an import, or exits with code 0 or 13 before starting). The `production` condition selects
// their plain builds.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import { build } from 'esbuild'

import { esbuildOptions, root } from './esbuild-options.mjs'

const entry = process.argv[2]
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs <entry.ts> [args...]')
  process.exit(2)
}

const entryPath = path.resolve(entry)
const outDir = path.join(root, 'node_modules/.cache/run-ts')
fs.mkdirSync(outDir, { recursive: true })
const outfile = path.join(
  outDir,
  `${path.basename(entryPath, '.ts')}-${process.pid}-${crypto.randomBytes(4).toString('hex')}.mjs`,
)
// esbuild's service process does not hold the event loop open: keep it open until the entry has
// been loaded (its own servers and timers hold it from then on).
const keepAlive = setInterval(() => undefined, 1 << 30)
await build({
  entryPoints: [entryPath],
  outfile,
  ...esbuildOptions,
  sourcemap: 'inline',
})

// The entry sees its own arguments as if it had been started directly.
process.argv.splice(1, 2, entryPath)
try {
  await import(pathToFileURL(outfile).href)
} finally {
  fs.rmSync(outfile, { force: true })
  clearInterval(keepAlive)
}
