// Builds Payload's admin (Next) for /cms: the import map first, then `next build`.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const cmsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cms')
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }
const bin = (name) => path.join(cmsDir, '../node_modules/.bin', name)

execFileSync(bin('payload'), ['generate:importmap'], { cwd: cmsDir, env, stdio: 'inherit' })
execFileSync(bin('next'), ['build'], {
  cwd: cmsDir,
  env: { ...env, NODE_ENV: 'production' },
  stdio: 'inherit',
})
