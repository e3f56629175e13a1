// `npm run bench`: measures the shop as owners run it (the production bundle, NODE_ENV=production,
// against the chain simulator and local rate and mail servers), beside test mode's start-up, and
// prints one table with every target marked `met` or `MISSED`. The same rows go to
// bench/results/<time>.json; `npm run bench -- --compare A.json B.json` prints the ratios of two
// runs. See bench/README.md for what each row means.
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import autocannon from 'autocannon'
import { createClient } from '@libsql/client'
import { Utils } from '@bsv/sdk'

import { startRateSources, startSmtpServer } from '../scripts/outside-services.mjs'
import { printProfile, summarizeProfile } from './profile.mjs'
import { compareRuns, printTable, rowsOf } from './table.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
if (argv[0] === '--compare') {
  if (argv.length !== 3) {
    console.error('usage: npm run bench -- --compare A.json B.json')
    process.exit(2)
  }
  compareRuns(...argv.slice(1).map((f) => JSON.parse(fs.readFileSync(f, 'utf8'))))
  process.exit(0)
}
const quick = argv.includes('--quick')
const only = argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',')
const want = (name) => !only || only.includes(name)
// CPU profiles of the production processes (node --cpu-prof), and where checkout time went.
const profile = argv.includes('--profile')
const SECONDS = quick ? 2 : 5
const SIZES = quick ? [10, 1000] : [10, 1000, 10000]
/**
 * Lighthouse runs per page; the median run is reported. Five, as Lighthouse's variability advice
 * has it ("the median Lighthouse score of 5 runs is twice as stable as 1 run"): with three, one
 * page's median moved between 97 and 99 from run to run of the same build.
 */
const LIGHTHOUSE_RUNS = 5
const PORT = Number(process.env.BENCH_PORT ?? 3800)
const SIM_PORT = PORT + 1
const STATIC_PORT = PORT + 2
// Caddy in front of the shop for the pages section, as owners run it (HTTPS, then HTTP).
const FRONT_HTTPS_PORT = PORT + 3
const FRONT_HTTP_PORT = PORT + 4
const base = `http://127.0.0.1:${PORT}`
const simBase = `http://127.0.0.1:${SIM_PORT}`
const PASSWORD = `Bench-${crypto.randomBytes(12).toString('base64url')}`
const ADMIN_EMAIL = 'admin@example.com'
const EUR_PER_BSV = 40
// BIP32 test vector 2: a real xpub that is not the published test-mode key (production refuses that).
const XPUB =
  'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB'
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-bench-'))
const results = { when: new Date().toISOString(), machine: machineInfo(), quick }

const log = (...args) => console.log('[bench]', ...args)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

function machineInfo() {
  return {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memGB: +(os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
  }
}

async function waitUntil(fn, { timeoutMs = 120_000, everyMs = 25, what = 'a condition' } = {}) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const value = await fn()
      if (value) return value
    } catch (error) {
      if (error?.fatal) throw error
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(everyMs)
  }
}

// ---------------------------------------------------------------------------------------------
// Everything the bench starts, and its stopping on success, failure or Ctrl-C
// ---------------------------------------------------------------------------------------------

const processes = []
const closers = []

/** Starts a process in a group of its own, so stopping it stops whatever it started too. */
function launch(name, command, args, env) {
  const child = spawn(command, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  const keep = (chunk) => {
    output = (output + chunk).slice(-200_000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  const proc = {
    name,
    child,
    output: () => output,
    exited: new Promise((resolve) => child.once('exit', resolve)),
  }
  processes.push(proc)
  return proc
}

const signalGroup = (child, signal) => {
  try {
    process.kill(-child.pid, signal)
  } catch {
    // already gone
  }
}

async function stop(proc) {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return
  signalGroup(proc.child, 'SIGTERM')
  const stopped = await Promise.race([proc.exited.then(() => true), sleep(15_000)])
  if (!stopped) signalGroup(proc.child, 'SIGKILL')
  // Whatever the group left behind.
  signalGroup(proc.child, 'SIGKILL')
}

async function stopEverything() {
  for (const proc of processes.toReversed()) await stop(proc)
  for (const close of closers.splice(0)) await close().catch(() => undefined)
}

let interrupted = false
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return
    interrupted = true
    console.error(`\n[bench] ${signal}: stopping everything it started`)
    stopEverything().finally(() => process.exit(130))
  })
}
// Last resort (an exception thrown past main): no process of ours outlives the bench.
process.on('exit', () => {
  for (const proc of processes) signalGroup(proc.child, 'SIGKILL')
})

// ---------------------------------------------------------------------------------------------
// The shop, in test mode (start-up only) and in production (everything)
// ---------------------------------------------------------------------------------------------

const lifted = {
  // The detection section's own orders all come from 127.0.0.1 and one address. (The checkout
  // rush comes from distinct buyers, as through the proxy: the open-order limits stay real.)
  ORDER_CREATE_RATE_LIMIT: '1000000',
  EMAILS_PER_ADDRESS_PER_HOUR: '1000000',
}

function testModeEnv() {
  const dataDir = path.join(work, 'test-mode')
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

const prodDir = path.join(work, 'production')
const profileDir = path.join(work, 'profiles')
let outside
let prodEnv
/** The production settings, the same for every start (one secret, one database). */
async function productionEnv() {
  if (prodEnv) return prodEnv
  if (!outside) {
    const rates = await startRateSources(EUR_PER_BSV)
    const smtp = await startSmtpServer()
    closers.push(rates.close, smtp.close)
    outside = { rates, smtp }
  }
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

let shop
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
async function startShop(mode, { profile: profiled = false } = {}) {
  const t0 = Date.now()
  if (mode === 'test mode') {
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
  const env = await productionEnv()
  const args = (name) => [
    ...NODE_ARGS,
    ...(profiled ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
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

async function stopShop() {
  if (!shop) return
  for (const proc of shop.procs) await stop(proc)
  shop = undefined
}

function childrenOf(pid) {
  const out = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid !== pid) continue
      out.push({
        pid: Number(entry),
        cmd: fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '),
      })
    } catch {
      // gone
    }
  }
  return out
}

const rssMB = (pid) => {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb ? Math.round(Number(kb) / 1024) : 0
  } catch {
    return 0
  }
}

/** Memory once both processes have settled (neither grew over 2 s). */
async function memoryAtRest() {
  let last = { web: 0, worker: 0 }
  return waitUntil(
    async () => {
      const now = { web: rssMB(shop.pids.web), worker: rssMB(shop.pids.worker) }
      const settled = now.worker > 50 && now.web <= last.web && now.worker <= last.worker
      last = now
      return settled ? now : null
    },
    { everyMs: 2000, timeoutMs: 60_000, what: 'memory to settle' },
  )
}

/** CPU seconds a process has used so far (user and system), from /proc. */
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/**
 * Waits until the shop is at rest (its processes used under a tenth of a CPU second over a
 * second): the worker sends the e-mails of the checkout section's thousand orders afterwards,
 * and pages measured meanwhile measured a machine busy with that, not the pages.
 */
async function waitForQuiet(what, timeoutMs = 300_000) {
  const pids = [shop.pids.web, shop.pids.worker]
  const started = Date.now()
  for (;;) {
    const before = pids.map(cpuSeconds)
    await sleep(1000)
    const used = pids.map(cpuSeconds).reduce((sum, after, i) => sum + after - before[i], 0)
    // A profiled process samples itself every millisecond: at rest it uses about 0.15 s a second.
    if (used < (profile ? 0.3 : 0.1) || Date.now() - started > timeoutMs) {
      log(`${what}: the shop was at rest after ${Date.now() - started} ms`)
      return
    }
  }
}

/** Samples the RSS of the web process and the worker while `fn` runs; returns fn's value. */
async function withMemory(label, fn) {
  const peak = { web: rssMB(shop.pids.web), worker: rssMB(shop.pids.worker) }
  const timer = setInterval(() => {
    peak.web = Math.max(peak.web, rssMB(shop.pids.web))
    peak.worker = Math.max(peak.worker, rssMB(shop.pids.worker))
  }, 100)
  try {
    return await fn()
  } finally {
    clearInterval(timer)
    results.memory ??= {}
    results.memory[label] = peak
  }
}

/** The chain simulator as its own process (WhatsOnChain's API on loopback), from the bundle. */
async function startSimulator() {
  const dir = path.join(work, 'simulator')
  launch(
    'chain simulator',
    process.execPath,
    ['--conditions=production', path.join(root, 'dist/chain-simulator.mjs')],
    {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      SIMULATOR_PORT: String(SIM_PORT),
      BSV_NETWORK: 'test',
      DATA_DIR: dir,
      DATABASE_URI: `file:${path.join(dir, 'unused.db')}`,
      LOG_LEVEL: 'warn',
    },
  )
  await waitUntil(async () => (await fetch(`${simBase}/healthz`)).ok, {
    what: 'the chain simulator',
  })
}

/** Builds what is stale for production (as `npm start` would), so no start below includes it. */
async function buildStale() {
  log('building what is stale (storefront, CMS admin, production bundle)')
  const proc = launch(
    'build',
    process.execPath,
    [path.join(root, 'scripts/start.mjs'), '--build-only'],
    { ...process.env, NODE_ENV: 'production' },
  )
  if ((await proc.exited) !== 0) throw new Error(`the build failed:\n${proc.output().slice(-3000)}`)
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers
// ---------------------------------------------------------------------------------------------

let adminCookie = ''
const adminHeaders = () => ({
  cookie: adminCookie,
  'x-requested-with': 'XMLHttpRequest',
  origin: base,
})

async function createAdmin(env) {
  const proc = launch(
    'create-admin',
    process.execPath,
    [
      '--conditions=production',
      path.join(root, 'dist/create-admin.mjs'),
      '--email',
      ADMIN_EMAIL,
      '--password',
      PASSWORD,
    ],
    env,
  )
  if ((await proc.exited) !== 0) throw new Error(`create-admin failed: ${proc.output()}`)
}

/** Payload's admin and REST (Next) load on first use: load them before any row measures them. */
async function warmCms() {
  await waitUntil(
    async () =>
      (await fetch(`${base}/cms/api/timeline?limit=1`, { headers: adminHeaders() })).status === 200,
    { timeoutMs: 120_000, everyMs: 200, what: 'Payload REST under /cms' },
  )
}

async function adminLogin() {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...adminHeaders() },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: PASSWORD }),
  })
  if (!res.ok) throw new Error(`admin login failed: ${res.status} ${await res.text()}`)
  adminCookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('payload-token='))
}

const PRODUCTS = [
  {
    name: 'The Dual Vote Handbook',
    type: 'DIGITAL',
    priceEUR: '19.90',
    shortDescription: 'Identity, dual vote and trust metrics.',
  },
  {
    name: 'The Dual Vote Handbook (printed)',
    type: 'PHYSICAL',
    priceEUR: '34.90',
    shortDescription: 'The handbook on paper, shipped to your door.',
  },
]

/** The owner's catalogue: a PDF and a printed book, with covers, through the admin API. */
async function addProducts() {
  const pdf = fs.readFileSync(path.join(root, 'production/support/book.pdf'))
  const cover = await coverImage()
  for (const product of PRODUCTS) {
    const form = new FormData()
    for (const [k, v] of Object.entries({
      ...product,
      totalStock: '1000',
      currentStock: '1000',
      isAvailable: 'true',
    }))
      form.append(k, v)
    form.append('coverImageFile', new Blob([cover], { type: 'image/webp' }), 'cover.webp')
    if (product.type === 'DIGITAL')
      form.append('digitalFile', new Blob([pdf], { type: 'application/pdf' }), 'book.pdf')
    const res = await fetch(`${base}/api/admin/products`, {
      method: 'POST',
      headers: adminHeaders(),
      body: form,
    })
    if (res.status !== 201)
      throw new Error(`adding ${product.name}: ${res.status} ${await res.text()}`)
  }
}

/** A book cover like the ones owners upload: 800 x 1200, drawn, as WebP. */
async function coverImage() {
  const { default: sharp } = await import('sharp')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1200">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#1d3557"/><stop offset="1" stop-color="#457b9d"/></linearGradient></defs>
    <rect width="800" height="1200" fill="url(#g)"/>
    <text x="400" y="560" font-size="72" fill="#f1faee" text-anchor="middle" font-family="serif">The Dual Vote</text>
    <text x="400" y="660" font-size="72" fill="#f1faee" text-anchor="middle" font-family="serif">Handbook</text>
  </svg>`
  return sharp(Buffer.from(svg)).webp({ quality: 82 }).toBuffer()
}

async function adminSetStock(product, stock) {
  const form = new FormData()
  for (const [k, v] of Object.entries({
    name: product.name,
    type: product.type,
    priceEUR: String(product.priceEUR),
    totalStock: String(stock),
    currentStock: String(stock),
    shortDescription: product.shortDescription,
    isAvailable: 'true',
  }))
    form.append(k, v)
  const res = await fetch(`${base}/api/admin/products/${product.id}`, {
    method: 'PUT',
    headers: adminHeaders(),
    body: form,
  })
  if (!res.ok) throw new Error(`stock update failed: ${res.status} ${await res.text()}`)
}

const getJson = async (url, init) => {
  const res = await fetch(url, init)
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  return res.json()
}
const postJson = (url, body = {}) =>
  getJson(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: SECONDS, ...opts }, (err, result) =>
      err ? reject(err) : resolve(result),
    )
  })
}

const SHIPPING = {
  shippingName: 'Bench Buyer',
  shippingAddressLine1: '1 Bench Street',
  shippingCity: 'Rome',
  shippingPostalCode: '00100',
  shippingCountry: 'IT',
  shippingPhone: '+39 06 000000',
}

async function createOrder(productId) {
  const res = await fetch(`${base}/api/orders/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productId, userEmail: 'bench@example.com' }),
  })
  const body = await res.json()
  if (!body.success) throw new Error(`order failed: ${res.status} ${JSON.stringify(body)}`)
  return body.orderId
}

/** A buyer's wallet paying an order: the exact amount to its address, into the mempool. */
async function payOrder(orderId) {
  const info = await getJson(`${base}/api/orders/${orderId}/info`)
  const satoshis = Math.round(Number(info.amountBSV) * 1e8)
  await postJson(`${simBase}/simulator/faucet`, { address: info.paymentAddress, satoshis })
}

const paymentStatus = async (orderId) =>
  (await getJson(`${base}/api/orders/${orderId}/payment-status`)).status

// ---------------------------------------------------------------------------------------------
// The sections
// ---------------------------------------------------------------------------------------------

async function benchStartup() {
  await buildStale()
  log('start-up, test mode: first run on a fresh database')
  const testFirst = await startShop('test mode')
  await stopShop()
  log('start-up, test mode: later run')
  const testLater = await startShop('test mode')
  const testRest = await memoryAtRest()
  await stopShop()

  await startSimulator()
  log('start-up, production bundle: first run on a fresh database')
  const prodFirst = await startShop('production')
  await createAdmin(await productionEnv())
  await stopShop()
  log('start-up, production bundle: later run')
  const prodLater = await startShop('production', { profile })
  const prodRest = await memoryAtRest()
  results.startup = {
    testMode: { firstRunMs: testFirst.firstPageMs, laterRunMs: testLater.firstPageMs },
    production: { firstRunMs: prodFirst.firstPageMs, laterRunMs: prodLater.firstPageMs },
  }
  results.memory = { 'at rest, test mode': testRest, 'at rest, production': prodRest }
  log(
    `start-up: test mode ${testFirst.firstPageMs} / ${testLater.firstPageMs} ms, production ${prodFirst.firstPageMs} / ${prodLater.firstPageMs} ms; web at rest ${prodRest.web} MB`,
  )
}

async function benchCatalogue() {
  const products = await getJson(`${base}/api/products`)
  const id = products[0].id
  // The ceiling: the same bytes from express.static in a process of its own.
  const staticDir = path.join(work, 'static')
  fs.mkdirSync(staticDir)
  fs.writeFileSync(
    path.join(staticDir, 'products.json'),
    await (await fetch(`${base}/api/products`)).text(),
  )
  fs.writeFileSync(
    path.join(staticDir, 'product.json'),
    await (await fetch(`${base}/api/products/${id}`)).text(),
  )
  const server = launch(
    'static server',
    process.execPath,
    [path.join(root, 'bench/static-server.mjs'), staticDir, String(STATIC_PORT)],
    process.env,
  )
  await waitUntil(async () => (await fetch(`http://127.0.0.1:${STATIC_PORT}/product.json`)).ok, {
    what: 'the static server',
  })

  // The admin's session as the admin screens send it: Payload refuses a cookie without them (403).
  const payloadHeaders = adminHeaders()
  const targets = [
    ['GET /api/products', `${base}/api/products`, {}],
    ['GET /api/products/{id}', `${base}/api/products/${id}`, {}],
    ['Payload REST list', `${base}/cms/api/products?depth=1`, payloadHeaders],
    ['Payload REST one', `${base}/cms/api/products/${id}?depth=1`, payloadHeaders],
    ['static list', `http://127.0.0.1:${STATIC_PORT}/products.json`, {}],
    ['static one', `http://127.0.0.1:${STATIC_PORT}/product.json`, {}],
  ]
  const rows = {}
  await withMemory('catalogue', async () => {
    for (const connections of [1, 50]) {
      // At 50 connections every target runs twice, in turn, and its row is the mean of the two:
      // one run's p99 is a handful of the slowest requests, and a pause of the machine in one
      // run moved a p99 to twice another target's (the p99 target compares two of them).
      const rounds = connections === 50 ? 2 : 1
      const runs = new Map(targets.map(([name]) => [name, []]))
      for (let round = 0; round < rounds; round += 1)
        for (const [name, url, headers] of targets) {
          const r = await cannon({ url, connections, headers })
          runs.get(name).push(r)
          log(
            `catalogue ${name} c=${connections}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms`,
          )
        }
      for (const [name, rs] of runs) {
        const mean = (of) => rs.reduce((sum, r) => sum + of(r), 0) / rs.length
        rows[`${name} c${connections}`] = {
          rps: Math.round(mean((r) => r.requests.average)),
          p50: +mean((r) => r.latency.p50).toFixed(1),
          p99: +mean((r) => r.latency.p99).toFixed(1),
          errors: rs.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
          ...(rs.length > 1 ? { p99s: rs.map((r) => r.latency.p99) } : {}),
        }
      }
    }
  })
  await stop(server)
  // Cache check: an admin's change is visible on the next request.
  const product = (await getJson(`${base}/api/admin/products`, { headers: adminHeaders() })).find(
    (p) => p.id === id,
  )
  await adminSetStock(product, product.currentStock + 7)
  const after = await getJson(`${base}/api/products/${id}`)
  const list = await getJson(`${base}/api/products`)
  rows.freshAfterAdminChange =
    after.currentStock === product.currentStock + 7 &&
    list.find((p) => p.id === id).currentStock === after.currentStock
  results.catalogue = rows
}

/** One autocannon run's numbers, with every status it answered and what timed out. */
function loadNumbers(r) {
  const statuses = Object.fromEntries(
    Object.entries(r.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
  )
  return {
    perSecond: Math.round((r['2xx'] ?? 0) / (r.duration || SECONDS)),
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    answered2xx: r['2xx'],
    statuses,
    errors: r.errors,
    timeouts: r.timeouts,
  }
}

async function benchCheckout() {
  const products = await getJson(`${base}/api/admin/products`, { headers: adminHeaders() })
  const book = products.find((p) => p.type === 'PHYSICAL' && !p.deletedAt)
  const initial = 100_000
  await adminSetStock(book, initial)
  const duration = quick ? 3 : 10
  // 50 buyers, each request a buyer of its own (address and e-mail), as a rush through the proxy.
  let buyer = 0
  const nextBuyer = (req) => {
    buyer += 1
    return {
      ...req,
      headers: {
        ...req.headers,
        'x-forwarded-for': `10.${(buyer >> 16) & 255}.${(buyer >> 8) & 255}.${buyer & 255}`,
      },
      body: JSON.stringify({
        productId: book.id,
        userEmail: `buyer-${buyer}@example.com`,
        ...SHIPPING,
      }),
    }
  }
  // Payload's own REST writing a document, in the same run and from rest, as the rush. Orders
  // are closed to /cms/api for every role (only checkout creates them), so this is its lightest
  // write: a timeline entry. It runs first: until stop 32 it ran right after the rush, while the
  // worker was still taking up the rush's 2,000 new orders (their e-mails, their first looks),
  // and Payload's rate then depended on how long that lasted (45-85 a second, 86 from rest).
  // Twice, from rest each time, and the mean of the two: from one run to the next on this
  // machine it wrote 82 to 136 a second, more spread than the rush's own.
  const payloadRuns = []
  for (let run = 0; run < 2; run += 1) {
    if (run > 0) await waitForQuiet('checkout, between Payload REST runs')
    payloadRuns.push(
      loadNumbers(
        await cannon({
          url: `${base}/cms/api/timeline`,
          method: 'POST',
          connections: 50,
          duration,
          timeout: 10,
          headers: { 'content-type': 'application/json', ...adminHeaders() },
          body: JSON.stringify({
            date: '2026',
            title: 'Bench entry',
            description: 'Written by the benchmark.',
            status: 'upcoming',
            order: 0,
          }),
        }),
      ),
    )
  }
  await waitForQuiet('checkout, after Payload REST')
  const web = shop.procs.find((p) => p.launchedAt)
  const window = { fromMs: Date.now() - web.launchedAt }
  const checkout = await withMemory('checkout', () =>
    cannon({
      url: `${base}/api/orders/create`,
      method: 'POST',
      connections: 50,
      duration,
      // A buyer waiting longer than this is counted as timed out.
      timeout: 10,
      headers: { 'content-type': 'application/json' },
      requests: [{ setupRequest: nextBuyer }],
    }),
  )
  window.toMs = Date.now() - web.launchedAt
  // The copies left and the orders stored, read in one snapshot: checkouts autocannon gave up on
  // may still be committing (each order commits with its copy, so one snapshot must agree).
  const db = createClient({ url: `file:${path.join(prodDir, 'shop.db')}` })
  const [stock, count] = await whenNotBusy(() =>
    db.batch(
      [
        { sql: 'select current_stock as n from products where id = ?', args: [book.id] },
        { sql: 'select count(*) as n from orders where product_id = ?', args: [book.id] },
      ],
      'read',
    ),
  )
  db.close()
  const after = Number(stock.rows[0].n)
  const orders = Number(count.rows[0].n)

  results.checkout = {
    window,
    ours: loadNumbers(checkout),
    payloadRest: meanOfRuns(payloadRuns),
    ordersInDb: orders,
    stockExact: initial - after === orders && after >= 0,
  }
  const ours = results.checkout.ours
  log(
    `checkout: ${ours.perSecond} orders/s, p50 ${ours.p50} ms, p99 ${ours.p99} ms, statuses ${JSON.stringify(ours.statuses)}, timeouts ${ours.timeouts}; Payload REST create ${results.checkout.payloadRest.perSecond}/s`,
  )
}

/** Load runs of one target as one: the mean rate and latencies, every answer counted. */
function meanOfRuns(runs) {
  const mean = (key) => Math.round(runs.reduce((sum, r) => sum + r[key], 0) / runs.length)
  const statuses = {}
  for (const r of runs)
    for (const [code, n] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + n
  return {
    perSecond: mean('perSecond'),
    p50: mean('p50'),
    p99: mean('p99'),
    max: Math.max(...runs.map((r) => r.max)),
    answered2xx: runs.reduce((sum, r) => sum + (r.answered2xx ?? 0), 0),
    statuses,
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    timeouts: runs.reduce((sum, r) => sum + r.timeouts, 0),
    runs: runs.map((r) => r.perSecond),
  }
}

/** Address indexes of the bench's own orders: far above the shop's, and each once. */
let benchAddressIndex = 1_000_000_000

const WATCHED_EMAIL = 'watched@example.com'

/** Watched orders the worker must keep looking at, spread over the 24 h monitoring window. */
async function insertWatchedOrders(count, productId) {
  const db = createClient({ url: `file:${path.join(prodDir, 'shop.db')}` })
  const now = Date.now()
  const windowMs = 24 * 3_600_000
  const expiryMs = 20 * 60_000
  let inserted = 0
  while (inserted < count) {
    const batch = []
    for (let i = 0; i < 500 && inserted < count; i += 1, inserted += 1) {
      const created = now - Math.floor(Math.random() * windowMs)
      const expires = created + expiryMs
      const address = Utils.toBase58Check(Array.from(crypto.randomBytes(20)), [0x6f])
      batch.push({
        sql: `insert into orders (id, status, product_id, product_name, product_type, user_email,
                price_at_purchase_u_s_d, bsv_usd_rate_at_purchase, amount_satoshi_expected, amount_satoshi_received,
                payment_address, address_index, gateway_expires_at, stock_released_at, created_at, updated_at)
              values (?, ?, ?, 'Bench book', 'DIGITAL', ?, 10, 40, 25000000, 0, ?, ?, ?, ?, ?, ?)`,
        args: [
          crypto.randomUUID(),
          expires > now ? 'AWAITING_PAYMENT' : 'EXPIRED',
          productId,
          WATCHED_EMAIL,
          address,
          (benchAddressIndex += 1),
          new Date(expires).toISOString(),
          expires > now ? null : new Date(expires).toISOString(),
          new Date(created).toISOString(),
          new Date(created).toISOString(),
        ],
      })
    }
    await whenNotBusy(() => db.batch(batch, 'write'))
  }
  db.close()
}

/**
 * Runs a statement batch of the bench's own client, again while the shop holds SQLite's write
 * lock: @libsql/client's connection after a transaction has no busy timeout (FIELD-NOTES), so
 * a batch meeting the worker's write failed the whole run with SQLITE_BUSY.
 */
async function whenNotBusy(run, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await run()
    } catch (error) {
      if (!String(error?.code).startsWith('SQLITE_BUSY') || Date.now() > deadline) throw error
      await sleep(20)
    }
  }
}

const simulatorCalls = async () => (await getJson(`${simBase}/healthz`)).apiRequests

async function benchDetection() {
  const products = await getJson(`${base}/api/products`)
  const pdf = products.find((p) => p.type === 'PDF')
  // Background orders carry the PDF product (no stock involved). This section runs before the
  // checkout one, whose thousands of fresh orders would otherwise be part of the watch list.
  let have = 0
  const rows = {}
  for (const size of SIZES) {
    await insertWatchedOrders(size - 1 - have, pdf.id)
    have = size - 1
    rows[size] = await detectionTrials(`detection ${size}`, pdf)
    have += 3
  }
  // The same at the largest size with WhatsOnChain's push stream down: polling alone, as the
  // worker goes on when the stream drops (issue 18: measure both).
  const largest = SIZES.at(-1)
  await postJson(`${simBase}/simulator/push`, { on: false })
  try {
    rows[`${largest}-polling`] = {
      label: `${largest} watched, push stream down`,
      ...(await detectionTrials(`detection ${largest}, polling only`, pdf)),
    }
  } finally {
    await postJson(`${simBase}/simulator/push`, { on: true })
  }
  results.detection = rows
  await removeWatchedOrders()
}

/**
 * Three payments, each timed from the wallet's broadcast to the order answering
 * PAYMENT_DETECTED, then a block each, timed to PAID; and the chain calls a minute meanwhile.
 */
async function detectionTrials(name, pdf) {
  const trials = []
  const confirmations = []
  let row
  await withMemory(name, async () => {
    // Let the worker settle into its rhythm with the new watch list.
    await sleep(quick ? 3000 : 12_000)
    const calls0 = await simulatorCalls()
    const t0 = Date.now()
    for (let i = 0; i < 3; i += 1) {
      const orderId = await createOrder(pdf.id)
      await payOrder(orderId)
      const paidAt = Date.now()
      await waitUntil(
        async () => ['PAYMENT_DETECTED', 'PAID'].includes(await paymentStatus(orderId)),
        { timeoutMs: 120_000, everyMs: 20, what: 'the payment to be detected' },
      )
      trials.push(Date.now() - paidAt)
      // A block with the payment: the time until the order is PAID (CONFIRMATIONS_REQUIRED=1).
      await postJson(`${simBase}/simulator/mine`, { blocks: 1 })
      const minedAt = Date.now()
      await waitUntil(async () => (await paymentStatus(orderId)) === 'PAID', {
        timeoutMs: 120_000,
        everyMs: 20,
        what: 'the order to be paid',
      })
      confirmations.push(Date.now() - minedAt)
      await sleep(1000)
    }
    // Calls per minute over at least 20 s of steady work.
    const elapsed = Date.now() - t0
    if (elapsed < 20_000) await sleep(20_000 - elapsed)
    const calls = (await simulatorCalls()) - calls0
    row = {
      detectionMs: trials,
      medianMs: trials.toSorted((a, b) => a - b)[1],
      maxMs: Math.max(...trials),
      paidAfterBlockMs: confirmations,
      paidMedianMs: confirmations.toSorted((a, b) => a - b)[1],
      paidMaxMs: Math.max(...confirmations),
      callsPerMinute: Math.round((calls / Math.max(elapsed, 20_000)) * 60_000),
    }
  })
  log(
    `${name}: ${row.detectionMs.join(', ')} ms; paid after its block: ${row.paidAfterBlockMs.join(', ')} ms; ${row.callsPerMinute} calls/min`,
  )
  return row
}

/**
 * The watched orders go once detection is measured: with 10,000 of them the worker never came
 * to rest (165 chain calls a minute), so the checkout rush waited five minutes for a quiet shop
 * and came to a busy one anyway.
 */
async function removeWatchedOrders() {
  const db = createClient({ url: `file:${path.join(prodDir, 'shop.db')}` })
  try {
    // With the e-mails the worker queued for them (an expiry notice), which need their order.
    const ofWatched = 'select id from orders where user_email = ?'
    await whenNotBusy(() =>
      db.batch(
        [
          {
            sql: `delete from email_outbox where order_id in (${ofWatched})`,
            args: [WATCHED_EMAIL],
          },
          { sql: 'delete from orders where user_email = ?', args: [WATCHED_EMAIL] },
        ],
        'write',
      ),
    )
  } finally {
    db.close()
  }
}

/**
 * What Lighthouse's simulated first contentful paint (the pessimistic estimate) waited for: the
 * page itself, the main thread's work before the paint (at Lighthouse's 4 x slower CPU), and the
 * request that ended last, with when it started and ended in the simulation.
 */
function firstPaintPath(timings) {
  if (!timings) return null
  const entries = [...timings.entries()]
  const network = entries.filter(([node]) => node.type === 'network')
  const [lastNode, last] = network.reduce((a, b) => (b[1].endTime > a[1].endTime ? b : a))
  const document = network.find(([node]) => node.isMainDocument())
  return {
    documentMs: Math.round(document?.[1].endTime ?? 0),
    mainThreadMs: Math.round(
      entries
        .filter(([node]) => node.type === 'cpu')
        .reduce((sum, [, t]) => sum + t.endTime - t.startTime, 0),
    ),
    lastRequest: {
      path: new URL(lastNode.request.url).pathname,
      kB: +(lastNode.request.transferSize / 1024).toFixed(1),
      startMs: Math.round(last.startTime),
      endMs: Math.round(last.endTime),
    },
  }
}

/** Where a command is on PATH, or null. */
function onPath(command) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, command)
    try {
      fs.accessSync(file, fs.constants.X_OK)
      return file
    } catch {
      // not here
    }
  }
  return null
}

/**
 * The shop's front door as owners run it: Caddy with the repository's Caddyfile (deploy/), HTTPS
 * from its local certificate authority, HTTP/2, compression, proxying to the web process. A
 * shopper's phone meets the shop there, never the web process's own plain HTTP/1.1. Null, with
 * the reason, when Caddy is not installed: the pages are then measured from the web process.
 */
async function startFrontDoor() {
  const caddy = onPath('caddy')
  if (!caddy) return { skipped: 'Caddy not found on PATH (apt-get install caddy)' }
  const home = path.join(work, 'caddy')
  const proc = launch(
    'caddy',
    caddy,
    ['run', '--config', path.join(root, 'deploy/Caddyfile'), '--adapter', 'caddyfile'],
    {
      PATH: process.env.PATH,
      HOME: home,
      XDG_DATA_HOME: path.join(home, 'data'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
      SHOP_DOMAIN: `localhost:${FRONT_HTTPS_PORT}`,
      SHOP_UPSTREAM: `127.0.0.1:${PORT}`,
      CADDY_GLOBAL: [
        'local_certs',
        'skip_install_trust',
        'admin off',
        `http_port ${FRONT_HTTP_PORT}`,
        `https_port ${FRONT_HTTPS_PORT}`,
      ].join('\n'),
    },
  )
  const front = `https://localhost:${FRONT_HTTPS_PORT}`
  const ca = path.join(home, 'data/caddy/pki/authorities/local/root.crt')
  await waitUntil(
    async () => {
      if (proc.child.exitCode !== null)
        throw Object.assign(new Error(`Caddy exited:\n${proc.output()}`), { fatal: true })
      if (!fs.existsSync(ca)) return false
      // Node asks through Caddy with its certificate authority, as the browser will (HTTP/1.1 here).
      const status = await new Promise((resolve) => {
        https
          .get(`${front}/healthz`, { ca: fs.readFileSync(ca) }, (res) => {
            res.resume()
            resolve(res.statusCode)
          })
          .on('error', () => resolve(0))
      })
      return status === 200
    },
    { timeoutMs: 30_000, what: 'Caddy in front of the shop' },
  )
  return { base: front, proc }
}

/** The machine's Chromium, or why the pages section cannot run. */
function findChromium() {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']
  const found = candidates.find((c) => c && fs.existsSync(c))
  return found
    ? { path: found }
    : {
        skipped: `Chromium not found (${candidates.filter(Boolean).join(', ')}): install it (apt-get install chromium) or set CHROME_PATH`,
      }
}

async function benchPages() {
  const chromium = findChromium()
  if (chromium.skipped) {
    log(`pages: skipped: ${chromium.skipped}`)
    results.pages = { skipped: chromium.skipped }
    return
  }
  const { default: lighthouse } = await import('lighthouse')
  // Lighthouse's own simulator: its node timings say what the simulated first paint waited for.
  const { Simulation } = await import('lighthouse/core/lib/lantern/lantern.js')
  const chromeLauncher = await import('chrome-launcher')
  const { computeMedianRun } = await import('lighthouse/core/lib/median-run.js')
  const products = await getJson(`${base}/api/products`)
  const front = await startFrontDoor()
  const via = front.base
    ? 'through Caddy (deploy/Caddyfile: HTTPS, HTTP/2)'
    : `from the web process (HTTP/1.1): ${front.skipped}`
  log(`pages: measured ${via}`)
  const pageBase = front.base ?? base
  const pages = [
    ['/', `${pageBase}/`],
    ['/store', `${pageBase}/store`],
    ['/product/{id}', `${pageBase}/product/${products[0].id}`],
  ]
  const chrome = await chromeLauncher.launch({
    chromePath: chromium.path,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      // Caddy's certificate comes from its own local authority, which this browser does not know.
      ...(front.base ? ['--ignore-certificate-errors'] : []),
    ],
  })
  const rows = {}
  try {
    for (const [name, url] of pages) {
      // Lighthouse's own advice on its variability: several runs, and the median one (the run
      // nearest the median FCP and TTI, its `computeMedianRun`), not one sample.
      const runs = []
      for (let i = 0; i < LIGHTHOUSE_RUNS; i += 1) {
        const { lhr } = await lighthouse(url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
        })
        runs.push({
          lhr,
          // What its simulated first paint waited for, read before the next run replaces it.
          fcpPath: firstPaintPath(
            Simulation.Simulator.allNodeTimings.get('pessimisticFirstContentfulPaint'),
          ),
        })
      }
      const median = computeMedianRun(runs.map((r) => r.lhr))
      const { lhr, fcpPath } = runs.find((r) => r.lhr === median)
      const scripts = lhr.audits['network-requests'].details.items.filter(
        (i) => i.resourceType === 'Script',
      )
      rows[name] = {
        performance: Math.round(lhr.categories.performance.score * 100),
        accessibility: Math.round(lhr.categories.accessibility.score * 100),
        fcpMs: Math.round(lhr.audits['first-contentful-paint'].numericValue),
        lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
        tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
        cls: +lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3),
        jsKB: +(scripts.reduce((s, i) => s + i.transferSize, 0) / 1024).toFixed(1),
        scripts: scripts.map((i) => new URL(i.url).pathname),
        adminCode: scripts.some((i) => /admin/i.test(i.url)),
        fcpPath,
        via,
        runs: runs.map((r) => Math.round(r.lhr.categories.performance.score * 100)),
        failed: Object.values(lhr.audits)
          .filter(
            (a) =>
              a.score !== null &&
              a.score < 1 &&
              lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id && r.weight > 0),
          )
          .map((a) => a.id),
      }
      log(
        `pages ${name}: performance ${rows[name].performance} (runs ${rows[name].runs.join(', ')}), accessibility ${rows[name].accessibility}, LCP ${rows[name].lcpMs} ms, JS ${rows[name].jsKB} KB`,
      )
    }
  } finally {
    await chrome.kill()
    if (front.proc) await stop(front.proc)
  }
  results.pages = rows
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

async function main() {
  await benchStartup()
  await adminLogin()
  await warmCms()
  await addProducts()
  if (want('catalogue')) await benchCatalogue()
  // The pages of a shop at rest, as a visitor finds them: before the sections that leave the
  // worker with orders to watch and e-mails to send.
  if (want('pages')) {
    await waitForQuiet('pages')
    await withMemory('pages', benchPages)
  }
  if (want('detection')) await benchDetection()
  if (want('checkout')) {
    // The rush comes to a shop at rest, as on launch day (not to one still loading /cms).
    await waitForQuiet('checkout')
    await benchCheckout()
  }
  results.memory.end = { web: rssMB(shop.pids.web), worker: rssMB(shop.pids.worker) }
  results.webPid = shop.pids.web
}

let failure
try {
  await main()
} catch (error) {
  failure = error
} finally {
  await stopEverything()
}
results.rows = rowsOf(results)
const resultsDir = path.join(root, 'bench/results')
const stamp = results.when.replace(/[:.]/g, '-')
if (profile && !failure && results.checkout) {
  // The web process's profile (written when it exited), by its pid.
  const webPid = results.webPid
  const file = fs.readdirSync(profileDir).find((f) => f.includes(`.${webPid}.`))
  if (file) {
    fs.mkdirSync(resultsDir, { recursive: true })
    const kept = path.join(resultsDir, `${stamp}-web.cpuprofile`)
    fs.copyFileSync(path.join(profileDir, file), kept)
    results.profile = {
      file: path.relative(root, kept),
      ...summarizeProfile(kept, { ...results.checkout.window, label: 'the checkout rush' }),
    }
  }
}
if (failure) {
  console.error(`[bench] failed: ${failure.message ?? failure}`)
  if (results.rows.length > 0) printTable(results)
  process.exit(1)
}
printTable(results)
if (results.profile) {
  printProfile(results.profile)
  console.log(
    `[bench] the web process's CPU profile: ${results.profile.file} (open it in Chrome DevTools)`,
  )
}
fs.mkdirSync(resultsDir, { recursive: true })
const file = path.join(resultsDir, `${stamp}.json`)
fs.writeFileSync(file, JSON.stringify(results, null, 2))
console.log(`\n[bench] results written to ${path.relative(root, file)}`)
fs.rmSync(work, { recursive: true, force: true })
