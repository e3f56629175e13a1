// The shop under measurement: in test mode (`npm start`, start-up only) and in production (the
// bundle's web and worker processes, for everything), with their settings, their start timed to
// the first served page, and the wait for the shop to be at rest.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { HD } from '@bsv/sdk'

import { nodeArgsOf } from '../../scripts/node-args.mjs'
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

/** The shop's processes log warnings only, unless BENCH_LOG_LEVEL says otherwise (see README). */
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn'

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
    LOG_LEVEL,
  }
}

/**
 * The database the production shop runs on: `{ engine, uri, dataDir, name, xpub }`. SQLite in the
 * run's production folder until `useDatabase` names another (a PostgreSQL database, a fresh SQLite
 * file for the rush); `dataDir` holds the shop's files (covers, PDFs) beside it.
 *
 * Every fresh database comes with a wallet of its own (`xpub`, from `freshShop`): a shop derives
 * its payment addresses from its xpub and its own counter, which starts again at 0 on a fresh
 * database, and the simulator remembers every payment of the run. With the same xpub a later
 * shop's first orders would have the earlier shop's addresses and find their payments at once.
 */
let database
export function currentDatabase() {
  database ??= {
    engine: 'sqlite',
    name: 'production',
    dataDir: productionDir(),
    uri: `file:${path.join(productionDir(), 'shop.db')}`,
  }
  return database
}

/** The database the next production start runs on (its folder is made here). */
export function useDatabase(next) {
  fs.mkdirSync(next.dataDir, { recursive: true })
  database = next
}

/**
 * A fresh shop's database (`uri` for PostgreSQL; a SQLite file in its folder without one), its
 * files' folder and a wallet (xpub) of its own, for the next start.
 */
export const freshShop = (name, uri) => {
  const dataDir = workPath(name)
  return {
    engine: uri ? 'postgres' : 'sqlite',
    name,
    dataDir,
    uri: uri ?? `file:${path.join(dataDir, 'shop.db')}`,
    xpub: HD.fromRandom().toPublic().toString(),
  }
}

let prodEnv
/** The production settings: the same for every start (one secret), on the current database. */
export async function productionEnv() {
  if (!prodEnv) {
    const outside = await outsideServices()
    prodEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? os.homedir(),
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      PAYLOAD_SECRET: crypto.randomBytes(32).toString('hex'),
      BSV_NETWORK: 'test',
      CHAIN_SOURCE: 'whatsonchain',
      WOC_API_URL: `${simBase}/v1/bsv/test`,
      // WhatsOnChain's push stream (Sockets V2), as the simulator speaks it.
      WOC_SOCKET_URL: `${simBase.replace(/^http:/, 'ws:')}/websocket`,
      // WhatsOnChain's limit without a key, so detection and calls/minute are the real ones.
      WOC_MAX_REQUESTS_PER_SECOND: '3',
      // ARC beside it (the simulator's stand-in), at a public instance's pace.
      ARC_URL: `${simBase}/arc`,
      ARC_MAX_REQUESTS_PER_SECOND: '10',
      RATE_SOURCE: 'live',
      COINGECKO_URL: outside.rates.coingeckoUrl,
      COINPAPRIKA_URL: outside.rates.coinpaprikaUrl,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(outside.smtp.port),
      SMTP_FROM: 'Book Shop <shop@example.com>',
      CONFIRMATIONS_REQUIRED: '1',
      LOG_LEVEL,
      // As behind the TLS proxy (production test, compose): the buyer's address comes from it.
      TRUST_PROXY: 'loopback',
      ...lifted,
    }
  }
  const db = currentDatabase()
  return { ...prodEnv, DATA_DIR: db.dataDir, DATABASE_URI: db.uri, BSV_XPUB: db.xpub ?? XPUB }
}

/** Each process's Node flags as the image starts it, or BENCH_NODE_ARGS for every one. */
const nodeArgs = (name) =>
  process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : nodeArgsOf(name)

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
export async function startShop(mode, { profile = false, webEnv = {}, env = {} } = {}) {
  return mode === 'test mode' ? startTestMode() : startProduction(profile, webEnv, env)
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

const productionArgs = (name, profiled) => [
  ...nodeArgs(name),
  ...(profiled ? ['--cpu-prof', `--cpu-prof-dir=${profileDir()}`] : []),
  path.join(root, `dist/${name}.mjs`),
]

/** The production web process, with `webEnv` over the production settings; its first page. */
async function startWeb(profiled, webEnv) {
  const t0 = Date.now()
  const web = launch('web (production)', process.execPath, productionArgs('web', profiled), {
    ...(await productionEnv()),
    ...webEnv,
  })
  web.launchedAt = t0
  const firstPageMs = await firstPage(t0, [web], "the production shop's first page")
  return { web, firstPageMs }
}

/** `env` goes over the production settings of both processes, `webEnv` over the web's only. */
async function startProduction(profiled, webEnv, env) {
  const args = (name) => productionArgs(name, profiled)
  const { web, firstPageMs } = await startWeb(profiled, { ...env, ...webEnv })
  const worker = launch('worker (production)', process.execPath, args('worker'), {
    ...(await productionEnv()),
    ...env,
    DB_PUSH: 'false',
  })
  shop = { procs: [worker, web], pids: { web: web.child.pid, worker: worker.child.pid } }
  return { firstPageMs }
}

/**
 * The production web process alone stopped and started again with `webEnv` over the production
 * settings; the worker goes on (what it has in memory stays, as during a web process's deploy).
 */
export async function restartWeb(webEnv = {}) {
  const old = shop.procs.find((p) => p.launchedAt)
  await stop(old)
  const { web, firstPageMs } = await startWeb(false, webEnv)
  shop.procs = shop.procs.map((p) => (p === old ? web : p))
  shop.pids.web = web.child.pid
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
 * a rush measured meanwhile measure a machine busy with that. Answers `{ atRest, waitedMs,
 * cpuPerSecond }`: whether it came to rest before `timeoutMs`, and its last second's CPU.
 */
export async function waitForQuiet(what, timeoutMs = 300_000) {
  const pids = [shop.pids.web, shop.pids.worker]
  const started = Date.now()
  for (;;) {
    const before = pids.map(cpuSeconds)
    await sleep(1000)
    const used = pids.map(cpuSeconds).reduce((sum, after, i) => sum + after - before[i], 0)
    // A profiled process samples itself every millisecond: at rest it uses about 0.15 s a second.
    const atRest = used < (run.profile ? 0.3 : 0.1)
    const waitedMs = Date.now() - started
    if (atRest || waitedMs > timeoutMs) {
      log(
        atRest
          ? `${what}: the shop was at rest after ${waitedMs} ms`
          : `${what}: the shop was not at rest after ${waitedMs} ms (${used.toFixed(2)} CPU s a second); going on`,
      )
      return { atRest, waitedMs, cpuPerSecond: +used.toFixed(2) }
    }
  }
}
