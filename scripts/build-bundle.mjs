// The production bundle: each process of the shop compiled once to JavaScript in dist/, so
// production starts `node dist/web.mjs` with no compiler and writes nothing outside DATA_DIR.
//   dist/web.mjs            the web process (express, Payload, Next for /cms)
//   dist/worker.mjs         the payment worker
//   dist/create-admin.mjs   `npm run create-admin` in production
//   dist/chain-simulator.mjs the test-mode chain (tests of the production bundle use it as
//                           WOC_API_URL; production itself never starts it)
// The storefront (Vite) and Payload's admin (Next) are built by their own tools (npm run build).
import fs from 'node:fs'
import path from 'node:path'

import { build } from 'esbuild'

import { esbuildOptions, root } from './esbuild-options.mjs'

export const BUNDLE_ENTRIES = {
  web: 'cms/src/server/main.ts',
  worker: 'payment-worker/src/main.ts',
  'create-admin': 'cms/src/cli/create-admin.ts',
  'chain-simulator': 'payment-worker/src/chain-simulator.ts',
}

const outdir = path.join(root, 'dist')
const started = Date.now()
fs.rmSync(outdir, { recursive: true, force: true })
await build({
  ...esbuildOptions,
  entryPoints: Object.fromEntries(
    Object.entries(BUNDLE_ENTRIES).map(([name, entry]) => [name, path.join(root, entry)]),
  ),
  outdir,
  outExtension: { '.js': '.mjs' },
  sourcemap: 'linked',
  // Names stay readable in stack traces; the bundle is a server's, size matters little.
  minify: false,
})
const sizes = Object.keys(BUNDLE_ENTRIES)
  .map(
    (name) => `${name} ${(fs.statSync(path.join(outdir, `${name}.mjs`)).size / 1e6).toFixed(1)} MB`,
  )
  .join(', ')
console.log(`[bundle] dist/: ${sizes} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
