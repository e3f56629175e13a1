// Runs a TypeScript entry point: `node scripts/run-ts.mjs <entry.ts> [args...]`.
//
// The entry and the shop's own modules are bundled by esbuild into one ES module; packages stay
// external and load through Node's own loader (no module hooks thread, no per-file transpiling).
//
// Start it with `node --conditions=production`: Lexical's packages (Payload's rich text) resolve
// by default to `*.node.mjs` files that pick their build with a top-level `await import()`, and
// Node 20's loader deadlocks on that graph in most starts on a loaded machine (the process hangs
// in an import, or exits with code 0 or 13 before starting). The `production` condition selects
// their plain builds.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { build } from 'esbuild'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const entry = process.argv[2]
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs <entry.ts> [args...]')
  process.exit(2)
}

// Bare imports stay external, except the shop's own workspaces, which are TypeScript sources.
const externalPackages = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@shop/') || path.isAbsolute(args.path)) return undefined
      return { path: args.path, external: true }
    })
  },
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
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'inline',
  logLevel: 'error',
  tsconfig: path.join(root, 'cms/tsconfig.json'),
  plugins: [externalPackages],
  banner: {
    js: "import { createRequire as __shopCreateRequire } from 'node:module'; const require = __shopCreateRequire(import.meta.url);",
  },
})

// The entry sees its own arguments as if it had been started directly.
process.argv.splice(1, 2, entryPath)
try {
  await import(pathToFileURL(outfile).href)
} finally {
  fs.rmSync(outfile, { force: true })
  clearInterval(keepAlive)
}
