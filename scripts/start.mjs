// `npm start`: builds what is missing or stale, then runs the shop's processes together:
// the web process, the payment worker and, in test mode, the local chain simulator.
// `npm run dev` does the same with Vite's dev server and Next in dev mode.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dev = process.argv.includes('--dev')
const production = process.env.NODE_ENV === 'production'
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: process.env.NODE_ENV ?? 'development' }

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0
  const stat = fs.statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === '.next') continue
    newest = Math.max(newest, newestMtime(path.join(target, entry)))
  }
  return newest
}

function buildIfStale({ name, output, sources, command }) {
  const built = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0
  const changed = Math.max(...sources.map((s) => newestMtime(path.join(root, s))))
  if (built >= changed) return
  console.log(`[start] building ${name} (${built ? 'sources changed' : 'first run'})...`)
  execFileSync('npm', ['run', ...command], { cwd: root, env, stdio: 'inherit' })
}

if (!dev) {
  buildIfStale({
    name: 'the storefront',
    output: path.join(root, 'storefront/dist/index.html'),
    sources: ['storefront/src', 'storefront/index.html', 'storefront/public', 'storefront/vite.config.ts', 'domain/src'],
    command: ['build', '-w', 'storefront'],
  })
  buildIfStale({
    name: "the CMS admin (Next, about a minute)",
    output: path.join(root, 'cms/.next/BUILD_ID'),
    sources: ['cms/src/payload.config.ts', 'cms/src/collections', 'cms/src/globals', 'cms/src/access', 'cms/src/app', 'cms/next.config.mjs'],
    command: ['build', '-w', 'cms'],
  })
}

const tsx = ['--import', 'tsx']
const processes = [
  { name: 'web', args: [...tsx, 'cms/src/server/main.ts', ...(dev ? ['--dev'] : [])] },
]
if (fs.existsSync(path.join(root, 'payment-worker/src/main.ts'))) {
  processes.push({ name: 'worker', args: [...tsx, 'payment-worker/src/main.ts'] })
}
if (!production && fs.existsSync(path.join(root, 'payment-worker/src/chain/simulator/main.ts'))) {
  processes.unshift({ name: 'chain-simulator', args: [...tsx, 'payment-worker/src/chain/simulator/main.ts'] })
}

const children = []
let stopping = false
function stopAll(code) {
  if (stopping) return
  stopping = true
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  setTimeout(() => process.exit(code), 15_000).unref()
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(() =>
    process.exit(code),
  )
}

for (const { name, args } of processes) {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit' })
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[start] ${name} stopped (${signal ?? `exit ${code}`}); stopping the shop.`)
      stopAll(code ?? 1)
    }
  })
  children.push(child)
}
if (dev) {
  const vite = spawn('npm', ['run', 'dev', '-w', 'storefront'], { cwd: root, env, stdio: 'inherit' })
  children.push(vite)
}

process.on('SIGINT', () => stopAll(0))
process.on('SIGTERM', () => stopAll(0))
