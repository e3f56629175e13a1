// `npm start`: builds what is missing or stale, then runs the shop's processes together:
// the web process, the payment worker and, in test mode, the local chain simulator.
// `npm run dev` does the same with Vite's dev server and Next in dev mode.
// With NODE_ENV=production it runs the compiled bundle (dist/, as the image does), built first
// when the sources are here and newer.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { buildSteps } from './build-plan.mjs'
import { nodeArgsOf } from './node-args.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dev = process.argv.includes('--dev')
const production = process.env.NODE_ENV === 'production'
const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: '1',
  NODE_ENV: process.env.NODE_ENV ?? 'development',
}

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

function buildIfStale({ name, output, sources, command, buildEnv = {} }) {
  const built = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0
  const changed = Math.max(...sources.map((s) => newestMtime(path.join(root, s))))
  // An installed bundle (the image) has no sources: it runs what it was built with.
  if (built >= changed || (built > 0 && changed === 0)) return
  console.log(`[start] building ${name} (${built ? 'sources changed' : 'first run'})...`)
  execFileSync('npm', ['run', ...command], {
    cwd: root,
    env: { ...env, ...buildEnv },
    stdio: 'inherit',
  })
}

if (!dev)
  for (const step of buildSteps({ production }))
    buildIfStale({ ...step, output: path.join(root, step.output) })

// `--build-only`: what is stale is built, nothing is started (the benchmark times starts alone).
if (process.argv.includes('--build-only')) process.exit(0)

// Production runs the compiled bundle; test mode runs the TypeScript entries through
// scripts/run-ts.mjs (esbuild, then Node's own loader).
// Each process's Node flags (the web's heap kept small, the worker's sized for speed).
const entry = (name, source) =>
  production
    ? [...nodeArgsOf(name), path.join(root, 'dist', `${name}.mjs`)]
    : [...nodeArgsOf(name), path.join(root, 'scripts/run-ts.mjs'), path.join(root, source)]
const children = []
let stopping = false

function stopAll(code) {
  if (stopping) return
  stopping = true
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  setTimeout(() => process.exit(code), 15_000).unref()
  Promise.all(
    children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)),
  ).then(() => process.exit(code))
}

/**
 * Starts one of the shop's processes; when it stops, the shop stops (but for one that may end
 * on its own, `mayEnd`, when it ends cleanly). Each reads the settings itself: this script
 * knows none of them.
 */
function run(name, args, { extraEnv = {}, mayEnd = false } = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  })
  child.on('exit', (code, signal) => {
    if (stopping || (mayEnd && code === 0)) return
    console.error(`[start] ${name} stopped (${signal ?? `exit ${code}`}); stopping the shop.`)
    stopAll(code ?? 1)
  })
  children.push(child)
  return child
}

/** Resolves true once the web process says it is listening, false if it ends first. */
const ready = (web) =>
  new Promise((resolve) => {
    web.on('message', (message) => {
      if (message?.ready) resolve(true)
    })
    web.once('exit', () => resolve(false))
  })

process.on('SIGINT', () => stopAll(0))
process.on('SIGTERM', () => stopAll(0))

// Test mode's chain simulator (it ends at once where the settings choose WhatsOnChain).
if (!production && fs.existsSync(path.join(root, 'payment-worker/src/chain-simulator.ts')))
  run('chain-simulator', entry('chain-simulator', 'payment-worker/src/chain-simulator.ts'), {
    mayEnd: true,
  })
// The web process prepares the database (schema push in test mode, migrations in production);
// the worker starts once it answers, and never pushes the schema itself.
const web = run('web', [...entry('web', 'cms/src/server/main.ts'), ...(dev ? ['--dev'] : [])])
if (await ready(web)) {
  run('worker', entry('worker', 'payment-worker/src/main.ts'), { extraEnv: { DB_PUSH: 'false' } })
}
if (dev) {
  children.push(
    spawn('npm', ['run', 'dev', '-w', 'storefront'], { cwd: root, env, stdio: 'inherit' }),
  )
}
