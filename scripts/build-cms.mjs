// Builds Payload's admin (Next) for /cms: the import map first, then `next build`.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const cmsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cms')
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }
const bin = (name) => path.join(cmsDir, '../node_modules/.bin', name)

// The import map is part of the build: it loads the Payload config but needs no production
// settings, as `next build` does not (a stale build under NODE_ENV=production failed on them).
execFileSync(bin('payload'), ['generate:importmap'], {
  cwd: cmsDir,
  env: { ...env, NEXT_PHASE: 'phase-production-build' },
  stdio: 'inherit',
})
// `--import-map-only`: the first step alone (the production test checks it needs no settings).
if (process.argv.includes('--import-map-only')) process.exit(0)
execFileSync(bin('next'), ['build'], {
  cwd: cmsDir,
  env: { ...env, NODE_ENV: 'production' },
  stdio: 'inherit',
})
