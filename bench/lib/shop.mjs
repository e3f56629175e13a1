// The shop under measurement: in test mode (`npm start`, start-up only) and in production (the
// bundle's web and worker processes, for everything), with their settings, their start timed to
// the first served page, and the wait for the shop to be at rest.
import crypto from 'node:crypto'
import os from 'node:os'
import path from 'node:path'

import {
  PASSWORD,
  PORT,
  SIM_PORT,
  XPUB,
  base,
  log,
  productionDir,
  profileDir,
  root,
  run,
  simBase,
  sleep,
  waitUntil,
  workPath,
} from './context.mjs'
import { childrenOf, cpuSeconds } from './proc.mjs'
import { launch, stop } from './processes.mjs'
import { outsideServices } from './servers.mjs'

/**
 * The running shop: `procs` (stopped in that order) and the `pids` of its web process and its
 * worker. Undefined while no shop runs.
 */
export let shop

const lifted = {
  // The detection section's own orders all come from 127.0.0.1 and one address. (The checkout
  // rush comes from distinct buyers, as through the proxy: the open-order limits stay real.)
  ORDER_CREATE_RATE_LIMIT: '1000000',
  EMAILS_PER_ADDRESS_PER_HOUR: '1000000',
}

function testModeEnv() {
  const dataDir = workPath('test-mode')
  return {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    SIMULATOR_PORT: String(SIM_PORT),
    DATA_DIR: dataDir,
    DATABASE_URI: `file:${path.join(dataDir, 'shop.db')}`,
    PUBLIC_URL: base,
    DEMO_ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'warn',
  }
}

let prodEnv
/** The production settings, the same for every start (one secret, one database). */
export async function productionEnv() {
  if (prodEnv) return prodEnv
  const outside = await outsideServices()
  const prodDir = productionDir()
  prodEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? os.homedir(),
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: prodDir,
    DATABASE_URI: `file:${path.join(prodDir, 'shop.db')}`,
    PAYLOAD_SECRET: crypto.randomBytes(32).toString('hex'),
    BSV_NETWORK: 'test',
    BSV_XPUB: XPUB,
    CHAIN_SOURCE: 'whatsonchain',
    WOC_API_URL: `${simBase}/v1/bsv/test`,
    // WhatsOnChain's push stream (Sockets V2), as the simulator speaks it.
    WOC_SOCKET_URL: `${simBase.replace(/^http:/, 'ws:')}/websocket`,
    // WhatsOnChain's limit without a key, so detection and calls/minute are the real ones.
    WOC_MAX_REQUESTS_PER_SECOND: '3',
    RATE_SOURCE: 'live',
    COINGECKO_URL: outside.rates.coingeckoUrl,
    COINPAPRIKA_URL: outside.rates.coinpaprikaUrl,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(outside.smtp.port),
    SMTP_FROM: 'Book Shop <shop@example.com>',
    CONFIRMATIONS_REQUIRED: '1',
    LOG_LEVEL: 'warn',
    // As behind the TLS proxy (production test, compose): the buyer's address comes from it.
    TRUST_PROXY: 'loopback',
    ...lifted,
  }
  return prodEnv
}

const NODE_ARGS = (
  process.env.BENCH_NODE_ARGS ?? '--optimize-for-size --conditions=production'
).split(' ')

/** The shop's first served page, or why it never came. */
async function firstPage(t0, procs, what) {
  return waitUntil(
    async () => {
      const gone = procs.find((p) => p.child.exitCode !== null)
      if (gone)
        throw Object.assign(new Error(`${gone.name} exited:\n${gone.output().slice(-3000)}`), {
          fatal: true,
        })
      const res = await fetch(`${base}/`)
      return res.ok && (await res.text()).includes('<div id="root"') ? Date.now() - t0 : 0
    },
    { timeoutMs: 600_000, everyMs: 50, what },
  )
}

/**
 * Test mode: `npm start` (scripts/start.mjs). Production: the web and worker processes of the
 * bundle, each started as the image starts it (the web process first: it runs the migrations),
 * with `--cpu-prof` when profiling. Timed from launch to the first served page.
 */
export async function startShop(mode, { profile = false } = {}) {
  return mode === 'test mode' ? startTestMode() : startProduction(profile)
}

async function startTestMode() {
  const t0 = Date.now()
  const proc = launch(
    'shop (test mode)',
    process.execPath,
    [path.join(root, 'scripts/start.mjs')],
    testModeEnv(),
  )
  const firstPageMs = await firstPage(t0, [proc], "the test-mode shop's first page")
  const pids = await waitUntil(
    () => {
      const kids = childrenOf(proc.child.pid)
      const web = kids.find((k) => k.cmd.includes('cms/src/server/main.ts'))
      const worker = kids.find((k) => k.cmd.includes('payment-worker/src/main.ts'))
      return web && worker ? { web: web.pid, worker: worker.pid } : null
    },
    { what: 'the web and worker processes' },
  )
  shop = { procs: [proc], pids }
  return { firstPageMs }
}

async function startProduction(profiled) {
  const t0 = Date.now()
  const env = await productionEnv()
  const args = (name) => [
    ...NODE_ARGS,
    ...(profiled ? ['--cpu-prof', `--cpu-prof-dir=${profileDir()}`] : []),
    path.join(root, `dist/${name}.mjs`),
  ]
  const web = launch('web (production)', process.execPath, args('web'), env)
  web.launchedAt = t0
  const firstPageMs = await firstPage(t0, [web], "the production shop's first page")
  const worker = launch('worker (production)', process.execPath, args('worker'), {
    ...env,
    DB_PUSH: 'false',
  })
  shop = { procs: [worker, web], pids: { web: web.child.pid, worker: worker.child.pid } }
  return { firstPageMs }
}

export async function stopShop() {
  if (!shop) return
  for (const proc of shop.procs) await stop(proc)
  shop = undefined
}

/** Builds what is stale for production (as `npm start` would), so no start below includes it. */
export async function buildStale() {
  log('building what is stale (storefront, CMS admin, production bundle)')
  const proc = launch(
    'build',
    process.execPath,
    [path.join(root, 'scripts/start.mjs'), '--build-only'],
    { ...process.env, NODE_ENV: 'production' },
  )
  if ((await proc.exited) !== 0) throw new Error(`the build failed:\n${proc.output().slice(-3000)}`)
}

/**
 * Waits until the shop is at rest (its processes used under a tenth of a CPU second over a
 * second): after a section the worker still sends e-mails and looks at new orders, and pages or
 * a rush measured meanwhile measure a machine busy with that.
 */
export async function waitForQuiet(what, timeoutMs = 300_000) {
  const pids = [shop.pids.web, shop.pids.worker]
  const started = Date.now()
  for (;;) {
    const before = pids.map(cpuSeconds)
    await sleep(1000)
    const used = pids.map(cpuSeconds).reduce((sum, after, i) => sum + after - before[i], 0)
    // A profiled process samples itself every millisecond: at rest it uses about 0.15 s a second.
    if (used < (run.profile ? 0.3 : 0.1) || Date.now() - started > timeoutMs) {
      log(`${what}: the shop was at rest after ${Date.now() - started} ms`)
      return
    }
  }
}
