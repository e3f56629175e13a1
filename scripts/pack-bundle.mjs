// Copies what production runs into <dir> (the image's /app; the production test's install):
// the compiled processes (dist/), the built storefront and admin, and the manifests that
// `npm ci --omit=dev` installs the production dependencies from. No sources, no tests, no
// secrets, no data. Run `npm run build` first. With `--install`, it then installs them there
// as the image does, and prints how long that took (`[pack] installed in N s`).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

import { root } from './esbuild-options.mjs'

const target = process.argv[2]
const install = process.argv.includes('--install')
if (!target || target.startsWith('--')) {
  console.error('usage: node scripts/pack-bundle.mjs <dir> [--install]')
  process.exit(2)
}
const dir = path.resolve(target)

const WORKSPACES = ['domain', 'chain', 'cms', 'storefront', 'payment-worker']
const FILES = [
  'package.json',
  'package-lock.json',
  'scripts/start.mjs',
  'scripts/run-entry.mjs',
  'scripts/entries.mjs',
  'dist',
  'storefront/dist',
  'storefront/dist-server',
  'cms/.next',
  'cms/next.config.mjs',
  ...WORKSPACES.map((w) => `${w}/package.json`),
]
// Next's build cache and traces are for building, not serving.
const SKIP = [/^cms\/\.next\/(cache|trace)/, /\.map$/, /^dist\/bundle-meta\.json$/]

for (const file of FILES) {
  const from = path.join(root, file)
  if (!fs.existsSync(from)) {
    console.error(`[pack] ${file} is missing: run \`npm run build\` first.`)
    process.exit(1)
  }
}
fs.rmSync(dir, { recursive: true, force: true })
for (const file of FILES) {
  fs.cpSync(path.join(root, file), path.join(dir, file), {
    recursive: true,
    filter: (source) => {
      const relative = path.relative(root, source).split(path.sep).join('/')
      return !SKIP.some((pattern) => pattern.test(relative))
    },
  })
}
if (!install) {
  console.log(`[pack] the production bundle is in ${dir}: run \`npm ci --omit=dev\` there`)
  process.exit(0)
}
const started = Date.now()
execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
  cwd: dir,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, NODE_ENV: 'production', npm_config_loglevel: 'error' },
})
console.log(`[pack] installed in ${((Date.now() - started) / 1000).toFixed(0)} s`)
