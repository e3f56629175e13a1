// The production bundle: each process and command of the shop (entries.mjs) compiled once to
// JavaScript in dist/, so production starts `node dist/web.mjs` with no compiler and writes
// nothing outside DATA_DIR. The storefront (Vite) and Payload's admin (Next) are built by their
// own tools (`npm run build` runs all three).
import fs from 'node:fs'
import path from 'node:path'

import { build } from 'esbuild'

import { ENTRIES } from './entries.mjs'
import { bundleOptions, root } from './esbuild-options.mjs'

const outdir = path.join(root, 'dist')
const started = Date.now()
fs.rmSync(outdir, { recursive: true, force: true })
const { metafile } = await build({ ...bundleOptions(outdir), metafile: true })
// Which packages and sources each file of dist/ holds (what a start loads, production tests;
// not shipped: pack-bundle.mjs skips it).
fs.writeFileSync(path.join(outdir, 'bundle-meta.json'), JSON.stringify(metafile))
const sizes = Object.keys(ENTRIES)
  .map(
    (name) => `${name} ${(fs.statSync(path.join(outdir, `${name}.mjs`)).size / 1e3).toFixed(0)} kB`,
  )
  .join(', ')
console.log(`[bundle] dist/: ${sizes} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
