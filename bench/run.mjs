// `npm run bench`: starts the shop on loopback (fresh test-mode data), measures start-up, the
// catalogue API, checkout, payment detection, the pages and memory, prints one table and writes
// it as JSON under bench/results/. See bench/README.md for what each row means.
import { fork, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import autocannon from 'autocannon'
import { createClient } from '@libsql/client'
import { Utils } from '@bsv/sdk'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const quick = process.argv.includes('--quick')
const SECONDS = quick ? 2 : 5
const SIZES = quick ? [10, 1000] : [10, 1000, 10000]
const PORT = Number(process.env.BENCH_PORT ?? 3800)
const SIM_PORT = PORT + 1
const STATIC_PORT = PORT + 2
const base = `http://127.0.0.1:${PORT}`
const PASSWORD = crypto.randomBytes(12).toString('base64url')
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-bench-'))
const started = []
const results = { when: new Date().toISOString(), machine: machineInfo(), rows: [] }

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

async function waitUntil(fn, { timeoutMs = 120_000, everyMs = 25 } = {}) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const value = await fn()
      if (value) return value
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`)
    await sleep(everyMs)
  }
}

// ---------------------------------------------------------------------------------------------
// The shop's processes and their memory
// ---------------------------------------------------------------------------------------------

const shopEnv = {
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
  // WhatsOnChain's limit without a key, so detection and calls/minute are the real ones.
  WOC_MAX_REQUESTS_PER_SECOND: '3',
  // The checkout row measures the database, not the per-client limiter (all buyers are 127.0.0.1).
  ORDER_CREATE_RATE_LIMIT: '1000000',
  MAX_OPEN_ORDERS_PER_CLIENT: '1000000',
  MAX_OPEN_ORDERS_PER_EMAIL: '1000000',
  EMAILS_PER_ADDRESS_PER_HOUR: '1000000',
}

let shop
async function startShop() {
  const t0 = Date.now()
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: shopEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (c) => (output += c))
  child.stderr.on('data', (c) => (output += c))
  started.push(child)
  const firstPageMs = await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`the shop exited:\n${output.slice(-3000)}`)
      const res = await fetch(`${base}/`)
      return res.ok && (await res.text()).includes('<div id="root"') ? Date.now() - t0 : 0
    },
    { timeoutMs: 300_000, everyMs: 50 },
  )
  const pids = await waitUntil(() => {
    const kids = childrenOf(child.pid)
    const web = kids.find((k) => k.cmd.includes('cms/src/server/main.ts'))
    const worker = kids.find((k) => k.cmd.includes('payment-worker/src/main.ts'))
    return web && worker ? { web: web.pid, worker: worker.pid } : null
  })
  shop = { child, pids, output: () => output, built: output.includes('[start] building') }
  return { firstPageMs, built: shop.built }
}

async function stopShop() {
  if (!shop) return
  const { child } = shop
  child.kill('SIGTERM')
  await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)))
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

/** Samples the RSS of the web process and the worker while `fn` runs; returns fn's value and the peaks. */
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

// ---------------------------------------------------------------------------------------------
// HTTP helpers
// ---------------------------------------------------------------------------------------------

let adminCookie = ''
async function adminLogin() {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      origin: base,
    },
    body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }),
  })
  if (!res.ok) throw new Error(`admin login failed: ${res.status} ${await res.text()}`)
  adminCookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('payload-token='))
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
    headers: { cookie: adminCookie, 'x-requested-with': 'XMLHttpRequest', origin: base },
    body: form,
  })
  if (!res.ok) throw new Error(`stock update failed: ${res.status} ${await res.text()}`)
}

const getJson = async (url, init) => {
  const res = await fetch(url, init)
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  return res.json()
}

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
  shippingCountry: 'Italy',
  shippingPhone: '+39 06 000000',
}

async function createOrder(productId, extra = {}) {
  const res = await fetch(`${base}/api/orders/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productId, userEmail: 'bench@example.com', ...extra }),
  })
  const body = await res.json()
  if (!body.success) throw new Error(`order failed: ${res.status} ${JSON.stringify(body)}`)
  return body.orderId
}

// ---------------------------------------------------------------------------------------------
// The sections
// ---------------------------------------------------------------------------------------------

async function benchStartup() {
  log('start-up: first run on a fresh database')
  const first = await startShop()
  await stopShop()
  log('start-up: later run')
  const later = await startShop()
  results.startup = {
    firstRunMs: first.firstPageMs,
    firstRunIncludedBuild: first.built,
    laterRunMs: later.firstPageMs,
  }
  // Idle: once the worker has loaded (its memory stops growing for 2 s).
  let last = 0
  await waitUntil(
    () => {
      const now = rssMB(shop.pids.worker)
      const settled = now > 50 && now === last
      last = now
      return settled
    },
    { everyMs: 2000 },
  )
  results.memory = { idle: { web: rssMB(shop.pids.web), worker: rssMB(shop.pids.worker) } }
}

async function benchCatalogue() {
  const products = await getJson(`${base}/api/products`)
  const id = products[0].id
  // The ceiling: the same bytes from express.static in a process of its own.
  const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-bench-static-'))
  fs.writeFileSync(
    path.join(staticDir, 'products.json'),
    await (await fetch(`${base}/api/products`)).text(),
  )
  fs.writeFileSync(
    path.join(staticDir, 'product.json'),
    await (await fetch(`${base}/api/products/${id}`)).text(),
  )
  const server = fork(
    path.join(root, 'bench/static-server.mjs'),
    [staticDir, String(STATIC_PORT)],
    { stdio: 'ignore' },
  )
  started.push(server)
  await new Promise((r) => server.once('message', r))

  const payloadHeaders = { cookie: adminCookie }
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
      for (const [name, url, headers] of targets) {
        const r = await cannon({ url, connections, headers })
        rows[`${name} c${connections}`] = {
          rps: Math.round(r.requests.average),
          p50: r.latency.p50,
          p99: r.latency.p99,
          errors: r.errors + r.non2xx,
        }
        log(
          `catalogue ${name} c=${connections}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms`,
        )
      }
    }
  })
  server.kill()
  // Cache check: an admin's change is visible on the next request.
  const product = (
    await getJson(`${base}/api/admin/products`, { headers: { cookie: adminCookie } })
  ).find((p) => p.id === id)
  await adminSetStock(product, product.currentStock + 7)
  const after = await getJson(`${base}/api/products/${id}`)
  const list = await getJson(`${base}/api/products`)
  rows.freshAfterAdminChange =
    after.currentStock === product.currentStock + 7 &&
    list.find((p) => p.id === id).currentStock === after.currentStock
  results.catalogue = rows
}

async function benchCheckout() {
  const products = await getJson(`${base}/api/admin/products`, { headers: { cookie: adminCookie } })
  const book = products.find((p) => p.type === 'PHYSICAL' && !p.deletedAt)
  const initial = 100_000
  await adminSetStock(book, initial)
  const body = JSON.stringify({ productId: book.id, userEmail: 'buyer@example.com', ...SHIPPING })
  const r = await withMemory('checkout', () =>
    cannon({
      url: `${base}/api/orders/create`,
      method: 'POST',
      connections: 50,
      duration: quick ? 3 : 10,
      headers: { 'content-type': 'application/json' },
      body,
    }),
  )
  const after = (
    await getJson(`${base}/api/admin/products/${book.id}`, { headers: { cookie: adminCookie } })
  ).currentStock
  const db = createClient({ url: shopEnv.DATABASE_URI })
  const orders = Number(
    (
      await db.execute({
        sql: 'select count(*) as n from orders where product_id = ?',
        args: [book.id],
      })
    ).rows[0].n,
  )
  db.close()
  results.checkout = {
    ordersPerSecond: Math.round(r['2xx'] / (r.duration || SECONDS)),
    p99: r.latency.p99,
    p50: r.latency.p50,
    answered2xx: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    ordersInDb: orders,
    stockExact: initial - after === orders && after >= 0,
  }
  log(
    `checkout: ${results.checkout.ordersPerSecond} orders/s, p99 ${r.latency.p99} ms, stock exact ${results.checkout.stockExact}`,
  )
}

/** Watched orders the worker must keep looking at, spread over the 24 h monitoring window. */
async function insertWatchedOrders(count, productId) {
  const db = createClient({ url: shopEnv.DATABASE_URI })
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
              values (?, ?, ?, 'Bench book', 'DIGITAL', 'watched@example.com', 10, 40, 25000000, 0, ?, ?, ?, ?, ?, ?)`,
        args: [
          crypto.randomUUID(),
          expires > now ? 'AWAITING_PAYMENT' : 'EXPIRED',
          productId,
          address,
          1_000_000 + Math.floor(Math.random() * 1e9),
          new Date(expires).toISOString(),
          expires > now ? null : new Date(expires).toISOString(),
          new Date(created).toISOString(),
          new Date(created).toISOString(),
        ],
      })
    }
    await db.batch(batch, 'write')
  }
  db.close()
}

async function simulatorCalls() {
  return (await getJson(`http://127.0.0.1:${SIM_PORT}/healthz`)).apiRequests
}

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
    const trials = []
    const confirmations = []
    await withMemory(`detection ${size}`, async () => {
      // Let the worker settle into its rhythm with the new watch list.
      await sleep(quick ? 3000 : 12_000)
      const calls0 = await simulatorCalls()
      const t0 = Date.now()
      for (let i = 0; i < 3; i += 1) {
        const orderId = await createOrder(pdf.id)
        await getJson(`${base}/api/test-mode/orders/${orderId}/pay`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
        const paidAt = Date.now()
        await waitUntil(
          async () => {
            const s = await getJson(`${base}/api/orders/${orderId}/payment-status`)
            return s.status === 'PAYMENT_DETECTED' || s.status === 'PAID'
          },
          { timeoutMs: 120_000, everyMs: 20 },
        )
        trials.push(Date.now() - paidAt)
        // A block with the payment: the time until the order is PAID (CONFIRMATIONS_REQUIRED=1).
        await getJson(`${base}/api/test-mode/mine`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
        const minedAt = Date.now()
        await waitUntil(
          async () =>
            (await getJson(`${base}/api/orders/${orderId}/payment-status`)).status === 'PAID',
          { timeoutMs: 120_000, everyMs: 20 },
        )
        confirmations.push(Date.now() - minedAt)
        await sleep(1000)
      }
      // Calls per minute over at least 20 s of steady work.
      const elapsed = Date.now() - t0
      if (elapsed < 20_000) await sleep(20_000 - elapsed)
      const calls = (await simulatorCalls()) - calls0
      rows[size] = {
        detectionMs: trials,
        medianMs: trials.toSorted((a, b) => a - b)[1],
        maxMs: Math.max(...trials),
        paidAfterBlockMs: confirmations,
        paidMedianMs: confirmations.toSorted((a, b) => a - b)[1],
        paidMaxMs: Math.max(...confirmations),
        callsPerMinute: Math.round((calls / Math.max(elapsed, 20_000)) * 60_000),
      }
      have += 3
    })
    log(
      `detection with ${size} watched orders: ${rows[size].detectionMs.join(', ')} ms; paid after its block: ${rows[size].paidAfterBlockMs.join(', ')} ms; ${rows[size].callsPerMinute} calls/min`,
    )
  }
  results.detection = rows
}

async function benchPages() {
  const { default: lighthouse } = await import('lighthouse')
  const chromeLauncher = await import('chrome-launcher')
  const products = await getJson(`${base}/api/products`)
  const pages = [
    ['/', `${base}/`],
    ['/store', `${base}/store`],
    ['/product/{id}', `${base}/product/${products[0].id}`],
  ]
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
  const rows = {}
  try {
    for (const [name, url] of pages) {
      const runner = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
      })
      const lhr = runner.lhr
      const scripts = lhr.audits['network-requests'].details.items.filter(
        (i) => i.resourceType === 'Script',
      )
      rows[name] = {
        performance: Math.round(lhr.categories.performance.score * 100),
        accessibility: Math.round(lhr.categories.accessibility.score * 100),
        lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
        tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
        cls: +lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3),
        jsKB: +(scripts.reduce((s, i) => s + i.transferSize, 0) / 1024).toFixed(1),
        scripts: scripts.map((i) => new URL(i.url).pathname),
        adminCode: scripts.some((i) => /admin/i.test(i.url)),
        failed: [
          ...Object.values(lhr.audits)
            .filter(
              (a) =>
                a.score !== null &&
                a.score < 1 &&
                lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id && r.weight > 0),
            )
            .map((a) => a.id),
        ],
      }
      log(
        `pages ${name}: performance ${rows[name].performance}, accessibility ${rows[name].accessibility}, JS ${rows[name].jsKB} KB`,
      )
    }
  } finally {
    await chrome.kill()
  }
  results.pages = rows
}

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

function printTable() {
  const r = results
  const lines = []
  const row = (...cells) =>
    lines.push(cells.map((c, i) => String(c).padEnd(i === 0 ? 34 : 16)).join(' '))
  lines.push('', `Book shop benchmark, ${r.when} (${r.machine.cpus} CPUs, ${r.machine.node})`, '')
  if (r.catalogue) {
    row('Catalogue', 'req/s', 'p50 ms', 'p99 ms', 'x Payload REST', '% of static')
    for (const c of [1, 50]) {
      const pairs = [
        ['GET /api/products', 'Payload REST list', 'static list'],
        ['GET /api/products/{id}', 'Payload REST one', 'static one'],
      ]
      for (const [ours, payloadName, staticName] of pairs) {
        const o = r.catalogue[`${ours} c${c}`]
        const p = r.catalogue[`${payloadName} c${c}`]
        const s = r.catalogue[`${staticName} c${c}`]
        row(
          `  ${ours} (${c} conn)`,
          o.rps,
          o.p50,
          o.p99,
          (o.rps / p.rps).toFixed(1),
          `${Math.round((100 * o.rps) / s.rps)}%`,
        )
        row(`    Payload REST`, p.rps, p.p50, p.p99, '', '')
        row(`    express.static (ceiling)`, s.rps, s.p50, s.p99, '', '')
      }
    }
    row('  admin change visible next request', r.catalogue.freshAfterAdminChange ? 'yes' : 'NO')
    lines.push('')
  }
  if (r.checkout) {
    row('Checkout (50 buyers)', 'orders/s', 'p50 ms', 'p99 ms', 'stock exact', 'non-2xx')
    row(
      '  POST /api/orders/create',
      r.checkout.ordersPerSecond,
      r.checkout.p50,
      r.checkout.p99,
      r.checkout.stockExact ? 'yes' : 'NO',
      r.checkout.non2xx + r.checkout.errors,
    )
    lines.push('')
  }
  if (r.detection) {
    row('Payment detection', 'median ms', 'max ms', 'calls/min', 'limit/min', '')
    for (const [size, d] of Object.entries(r.detection))
      row(`  ${size} watched orders`, d.medianMs, d.maxMs, d.callsPerMinute, 180)
    lines.push('')
    row('Block to PAID', 'median ms', 'max ms', '', '', '')
    for (const [size, d] of Object.entries(r.detection))
      row(`  ${size} watched orders`, d.paidMedianMs, d.paidMaxMs)
    lines.push('')
  }
  if (r.pages) {
    row(
      'Pages (Lighthouse mobile)',
      'performance',
      'accessibility',
      'JS KB (gz)',
      'LCP ms',
      'admin code',
    )
    for (const [name, p] of Object.entries(r.pages))
      row(`  ${name}`, p.performance, p.accessibility, p.jsKB, p.lcpMs, p.adminCode ? 'YES' : 'no')
    lines.push('')
  }
  row('Memory (peak RSS MB)', 'web', 'worker')
  for (const [phase, m] of Object.entries(r.memory ?? {})) row(`  ${phase}`, m.web, m.worker)
  lines.push('')
  if (r.startup) {
    row('Start-up (npm start -> first page)', 'ms')
    row(
      `  first run (fresh database${r.startup.firstRunIncludedBuild ? ', with build' : ''})`,
      r.startup.firstRunMs,
    )
    row('  later run', r.startup.laterRunMs)
  }
  console.log(lines.join('\n'))
}

async function main() {
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',')
  const want = (name) => !only || only.includes(name)
  try {
    await benchStartup()
    await adminLogin()
    if (want('catalogue')) await benchCatalogue()
    if (want('detection')) await benchDetection()
    if (want('checkout')) await benchCheckout()
    if (want('pages')) await withMemory('pages', benchPages)
    results.memory.end = { web: rssMB(shop.pids.web), worker: rssMB(shop.pids.worker) }
  } finally {
    await stopShop()
    for (const child of started) if (child.exitCode === null) child.kill('SIGKILL')
  }
  printTable()
  const dir = path.join(root, 'bench/results')
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, `${results.when.replace(/[:.]/g, '-')}.json`)
  fs.writeFileSync(file, JSON.stringify(results, null, 2))
  console.log(`\n[bench] results written to ${path.relative(root, file)}`)
  fs.rmSync(dataDir, { recursive: true, force: true })
}

main().catch((error) => {
  console.error('[bench] failed:', error)
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL')
  process.exit(1)
})
