import type { ChildProcess } from 'node:child_process'
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import pg from 'pg'
import { Agent, FormData, fetch as httpsFetch } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createWhatsOnChainClient } from '@shop/chain'
import { mineOnSimulator, payFromTestWallet } from '@shop/chain/simulator'
import type { TestPostgres } from '../cms/test/support/postgres'
import { postgresBinaries, startPostgres } from '../cms/test/support/postgres'
import { WEB_NODE_ARGS, WORKER_NODE_ARGS } from '../scripts/node-args.mjs'
import type { Mail } from '../scripts/outside-services.mjs'
import { freePort, startRateSources, startSmtpServer } from '../scripts/outside-services.mjs'

/**
 * The production bundle on this machine, as the image runs it: built once
 * (`npm run build`), packed and installed with production dependencies only into a directory
 * its user cannot write, run as an unprivileged user with NODE_ENV=production on SQLite in a
 * data directory, behind Caddy with its internal TLS certificate. The chain is the simulator run
 * standalone (WOC_API_URL), the rates come from local CoinGecko and CoinPaprika servers, e-mail
 * goes to a local SMTP server.
 *
 * Then the same bundle on PostgreSQL (decision 022): a fresh database of a throwaway cluster,
 * the migrations applied at start, a PDF sold and delivered; the database backed up and restored
 * with the commands docs/production.md gives, and the shop started on the restored copy.
 */

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-production-'))
/**
 * Where the bundle is installed: `npm test` packs and installs it while the browser tests run
 * (PRODUCTION_APP_DIR, with the install's time in PRODUCTION_INSTALL_SECONDS); alone, this file
 * does it.
 */
const prepared = process.env.PRODUCTION_APP_DIR
const app = prepared ?? path.join(work, 'app')
const data = path.join(work, 'data')
const home = path.join(work, 'home')
const USER = 'shopprod'
// BIP32 test vector 2 (not the published test-mode key, which production refuses).
const XPUB =
  'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB'
// BIP32 test vector 2, chain m/0: the PostgreSQL shop's own wallet, so its first addresses are
// not the ones the SQLite shop was paid at (the simulator keeps every payment of the run).
const POSTGRES_XPUB =
  'xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH'
const OWNER = { email: 'owner@example.com', password: 'Lantern-orchard-velvet-9021' }
const EUR_PER_BSV = 40

type Proc = {
  name: string
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
}
const procs: Proc[] = []
let asUser: string[] = []
let shopEnv: Record<string, string> = {}
let httpsBase = ''
let httpBase = ''
let wocUrl = ''
/** A key in the push stream's address (WOC_SOCKET_URL), which no log may show. */
const SOCKET_KEY = crypto.randomBytes(12).toString('hex')
let dispatcher: Agent
let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let rates: Awaited<ReturnType<typeof startRateSources>>
let marker = 0
const measured: Record<string, string> = {}

function start(name: string, command: string[], env: Record<string, string>, cwd = app): Proc {
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  const proc = { name, child, output: () => output, exited }
  procs.push(proc)
  return proc
}

async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 60_000,
): Promise<T> {
  const started = Date.now()
  for (;;) {
    try {
      const value = await check()
      if (value) return value
    } catch {
      // not yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Over HTTPS through Caddy, trusting only Caddy's local certificate authority. */
const shop = (pathname: string, init: Parameters<typeof httpsFetch>[1] = {}) =>
  httpsFetch(`${httpsBase}${pathname}`, { ...init, dispatcher })
type Client = typeof shop
/** Straight to a web process on loopback (the PostgreSQL shop, which has no Caddy of its own). */
const direct =
  (base: string): Client =>
  (pathname, init = {}) =>
    httpsFetch(`${base}${pathname}`, init)

const rssKb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)

/** Node and its flags for a process of the bundle, as the image and compose start it. */
const nodeArgs = ['node', ...WEB_NODE_ARGS]
const workerArgs = ['node', ...WORKER_NODE_ARGS]

beforeAll(async () => {
  // Install as the image does: the packed bundle, then production dependencies only.
  for (const built of ['dist/web.mjs', 'cms/.next/BUILD_ID', 'storefront/dist/index.html'])
    if (!fs.existsSync(path.join(repo, built)))
      throw new Error(`${built} is missing: run \`npm run build\` first (npm test does).`)
  if (prepared) measured.install = `${process.env.PRODUCTION_INSTALL_SECONDS ?? '?'} s`
  else {
    const packed = execFileSync(
      'node',
      [path.join(repo, 'scripts/pack-bundle.mjs'), app, '--install'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    ).toString()
    measured.install = `${/installed in (\d+) s/.exec(packed)?.[1] ?? '?'} s`
  }
  measured.size = execFileSync('du', ['-sh', app]).toString().split('\t')[0]!
  measured.nodeModules = execFileSync('du', ['-sh', path.join(app, 'node_modules')])
    .toString()
    .split('\t')[0]!

  // The user: unprivileged, owning only the data directory and its home (the image's /tmp).
  fs.mkdirSync(data)
  fs.mkdirSync(home)
  if (process.getuid?.() === 0) {
    try {
      execFileSync('id', ['-u', USER], { stdio: 'pipe' })
    } catch {
      execFileSync('useradd', [
        '--system',
        '--no-create-home',
        '--shell',
        '/usr/sbin/nologin',
        USER,
      ])
    }
    const uid = execFileSync('id', ['-u', USER]).toString().trim()
    const gid = execFileSync('id', ['-g', USER]).toString().trim()
    execFileSync('chown', ['-R', `${uid}:${gid}`, data, home])
    execFileSync('chmod', ['-R', 'go-w', app])
    fs.chmodSync(work, 0o755)
    asUser = ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--']
  } else {
    // Not root: the install is made read-only for ourselves instead.
    execFileSync('chmod', ['-R', 'a-w', app])
  }

  // The outside world.
  smtp = await startSmtpServer()
  rates = await startRateSources(EUR_PER_BSV)
  const simulatorPort = await freePort()
  const simulator = start(
    'chain-simulator',
    [...nodeArgs, path.join(repo, 'dist/chain-simulator.mjs')],
    {
      NODE_ENV: 'test',
      SIMULATOR_PORT: String(simulatorPort),
      BSV_NETWORK: 'test',
      DATA_DIR: path.join(work, 'simulator'),
      DATABASE_URI: `file:${path.join(work, 'simulator', 'unused.db')}`,
      LOG_LEVEL: 'warn',
    },
    repo,
  )
  wocUrl = `http://127.0.0.1:${simulatorPort}/v1/bsv/test`
  await waitFor('the chain simulator', async () => (await fetch(`${wocUrl}/chain/info`)).ok).catch(
    (error: Error) => {
      throw new Error(`${error.message}\n${simulator.output()}`)
    },
  )

  // Caddy in front, with the repository's Caddyfile and its local certificate authority.
  const webPort = await freePort()
  const httpsPort = await freePort()
  const httpPort = await freePort()
  const caddyHome = path.join(work, 'caddy')
  const caddy = start(
    'caddy',
    ['caddy', 'run', '--config', path.join(repo, 'deploy/Caddyfile'), '--adapter', 'caddyfile'],
    {
      HOME: caddyHome,
      XDG_DATA_HOME: path.join(caddyHome, 'data'),
      XDG_CONFIG_HOME: path.join(caddyHome, 'config'),
      SHOP_DOMAIN: `localhost:${httpsPort}`,
      SHOP_UPSTREAM: `127.0.0.1:${webPort}`,
      CADDY_GLOBAL: [
        'local_certs',
        'skip_install_trust',
        'admin off',
        `http_port ${httpPort}`,
        `https_port ${httpsPort}`,
      ].join('\n'),
    },
    repo,
  )
  const rootCa = path.join(caddyHome, 'data/caddy/pki/authorities/local/root.crt')
  await waitFor('Caddy and its certificate authority', () => fs.existsSync(rootCa)).catch(
    (error: Error) => {
      throw new Error(`${error.message}\n${caddy.output()}`)
    },
  )
  dispatcher = new Agent({ connect: { ca: fs.readFileSync(rootCa, 'utf8') } })
  httpsBase = `https://localhost:${httpsPort}`
  httpBase = `http://localhost:${httpPort}`

  shopEnv = {
    NODE_ENV: 'production',
    HOME: home,
    npm_config_cache: path.join(home, 'npm'),
    npm_config_update_notifier: 'false',
    PORT: String(webPort),
    HOST: '127.0.0.1',
    PUBLIC_URL: httpsBase,
    TRUST_PROXY: 'loopback',
    DATABASE_URI: `file:${path.join(data, 'shop.db')}`,
    DATA_DIR: data,
    PAYLOAD_SECRET: crypto.randomBytes(32).toString('hex'),
    BSV_NETWORK: 'test',
    BSV_XPUB: XPUB,
    CHAIN_SOURCE: 'whatsonchain',
    WOC_API_URL: wocUrl,
    // WhatsOnChain's push stream, as the simulator speaks it (chain/src/feed.ts).
    // With a key in its query, as an owner might put one there: it must never reach the logs.
    WOC_SOCKET_URL: `${wocUrl.replace(/^http:/, 'ws:').replace(/\/v1\/bsv\/test$/, '/websocket')}?key=${SOCKET_KEY}`,
    RATE_SOURCE: 'live',
    COINGECKO_URL: rates.coingeckoUrl,
    COINPAPRIKA_URL: rates.coinpaprikaUrl,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'Book Shop <shop@example.com>',
    CONFIRMATIONS_REQUIRED: '1',
    WORKER_FAST_POLL_MS: '300',
    WORKER_SLOW_POLL_MS: '1000',
    WORKER_LEASE_SECONDS: '4',
    LOG_LEVEL: 'info',
  }
  marker = Date.now()
  const webStarted = Date.now()
  const web = start('web', [...asUser, ...nodeArgs, 'dist/web.mjs'], shopEnv)
  await waitFor(
    'the web process behind Caddy',
    async () => (await shop('/healthz')).status === 200,
    120_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${web.output()}\n${caddy.output()}`)
  })
  measured.start = `${((Date.now() - webStarted) / 1000).toFixed(1)} s`
  for (const name of ['worker-1', 'worker-2'])
    start(name, [...asUser, ...workerArgs, 'dist/worker.mjs'], shopEnv)
}, 600_000)

afterAll(async () => {
  for (const proc of procs) if (proc.child.exitCode === null) proc.child.kill('SIGTERM')
  await Promise.all(
    procs.map((p) =>
      Promise.race([p.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]),
    ),
  )
  for (const proc of procs) if (proc.child.exitCode === null) proc.child.kill('SIGKILL')
  await database?.stop()
  await restored?.stop()
  await smtp?.close()
  await rates?.close()
  await dispatcher?.close()
  console.log(
    `[production] installed bundle ${measured.size} (node_modules ${measured.nodeModules}, npm ci --omit=dev ${measured.install}); web start to healthy ${measured.start}; at rest: web ${measured.webRss}, active worker ${measured.workerRss}, standby ${measured.standbyRss}; standby took over ${measured.takeover}; PostgreSQL: web start to healthy ${measured.postgresStart}, to a PDF sold and downloaded ${measured.postgresSale}, dump and restore ${measured.postgresRestore}, restored web start to healthy ${measured.restoredStart}`,
  )
  fs.rmSync(work, { recursive: true, force: true })
})

const holds = (p: Proc) => p.output().includes('payment worker holds the lease: running passes')
const worker = (name: string) => procs.find((p) => p.name === name)!

const decoded = (mail: Mail) =>
  mail.raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
const pdf = fs.readFileSync(path.join(repo, 'production/support/book.pdf'))

/** Buys the PDF as a shopper's wallet would: order, pay the address, one block. */
async function buyAndPay(productId: number, email: string, client = shop) {
  const created = await client('/api/orders/create', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productId, userEmail: email, tokenAddress: null }),
  })
  const body = (await created.json()) as { success: boolean; orderId: string; error?: string }
  expect(created.status, JSON.stringify(body)).toBe(201)
  const info = (await (await client(`/api/orders/${body.orderId}/info`)).json()) as {
    paymentAddress: string
    amountBSV: string
  }
  const satoshis = Math.round(Number(info.amountBSV) * 1e8)
  const chain = createWhatsOnChainClient({ baseUrl: wocUrl, maxRequestsPerSecond: 50 })
  await payFromTestWallet({
    chain,
    wocUrl,
    network: 'test',
    address: info.paymentAddress,
    satoshis,
  })
  await waitFor('the payment detected', async () => {
    const status = (await (await client(`/api/orders/${body.orderId}/payment-status`)).json()) as {
      status: string
    }
    return status.status === 'PAYMENT_DETECTED'
  })
  await mineOnSimulator({ wocUrl })
  return body.orderId
}

/** The order's payment status once it is PAID with its download link. */
const paidWithLink = (orderId: string, client = shop) =>
  waitFor('the order paid', async () => {
    const status = (await (await client(`/api/orders/${orderId}/payment-status`)).json()) as {
      status: string
      downloadUrl: string | null
    }
    return status.status === 'PAID' && status.downloadUrl ? status : null
  })

/** The owner signs in (the session cookie), through the admin's own sign-in. */
async function signIn(client: Client, origin: string): Promise<string> {
  const login = await client('/api/admin/login', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      origin,
    },
    body: JSON.stringify(OWNER),
  })
  expect(login.status).toBe(200)
  const setCookie = login.headers.getSetCookie().find((c) => c.startsWith('payload-token='))!
  expect(setCookie).toMatch(/;\s*HttpOnly/i)
  return setCookie
}

/** `npm run create-admin` with the owner's e-mail and password, as the shop's user. */
async function createAdmin(name: string, env: Record<string, string>, publicUrl: string) {
  const created = start(
    name,
    [
      ...asUser,
      'npm',
      'run',
      'create-admin',
      '--',
      '--email',
      OWNER.email,
      '--password',
      OWNER.password,
    ],
    env,
  )
  expect(await created.exited, created.output()).toBe(0)
  expect(created.output()).toContain(
    `create-admin: ${OWNER.email} can now sign in at ${publicUrl}/admin`,
  )
}

/** The PDF for sale, added through /admin's product form; its id. */
async function addPdf(client: Client, origin: string, cookie: string): Promise<number> {
  const form = new FormData()
  for (const [name, value] of Object.entries({
    name: 'The Dual Vote Handbook',
    type: 'DIGITAL',
    priceEUR: '19.90',
    totalStock: '100',
    currentStock: '100',
    shortDescription: 'Identity, dual vote and trust metrics.',
    isAvailable: 'true',
  }))
    form.append(name, value)
  form.append(
    'digitalFile',
    new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }),
    'handbook.pdf',
  )
  const saved = await client('/api/admin/products', {
    method: 'POST',
    headers: { cookie, 'x-requested-with': 'XMLHttpRequest', origin },
    body: form,
  })
  const product = (await saved.json()) as { id: number }
  expect(saved.status, JSON.stringify(product)).toBe(201)
  return product.id
}

/** The e-mails to one buyer that carry a download link. */
const linkMailsTo = (email: string) =>
  smtp.mails.filter((m) => m.to.includes(email) && decoded(m).includes('/download/'))

/** A download link's answer: the PDF sold, byte for byte. */
async function expectThePdf(client: Client, link: string) {
  const download = await client(link)
  expect(download.status).toBe(200)
  expect(download.headers.get('content-type')).toMatch(/^application\/pdf/)
  expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true)
}

let productId = 0
let cookie = ''

describe('the production bundle behind Caddy', () => {
  it('answers over HTTPS with the database checked, and sends plain HTTP to HTTPS', async () => {
    const health = await shop('/healthz')
    expect(await health.json()).toEqual({ ok: true, database: 'ok' })
    expect(health.headers.get('cache-control')).toBe('no-store')
    const plain = await fetch(`${httpBase}/admin`, { redirect: 'manual' })
    expect(plain.status).toBe(308)
    // (To the default HTTPS port: in production Caddy listens on 443.)
    expect(plain.headers.get('location')).toMatch(/^https:\/\/localhost(:\d+)?\/admin$/)
  })

  it('sends the store drawn by the server, and the app as its brotli copy (decision 015)', async () => {
    const page = await (await shop('/store')).text()
    expect(page).toMatch(/<div id="root">[\s\S]*<h1 id="store-title">Our Books<\/h1>/)
    const app = /<script type="module" crossorigin src="(\/assets\/index-[^"]+\.js)">/.exec(
      page,
    )?.[1]
    expect(app).toBeDefined()
    const res = await shop(app!, { headers: { 'accept-encoding': 'br' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toBe('br')
    expect((await res.arrayBuffer()).byteLength).toBe(
      fs.statSync(path.join(repo, 'storefront/dist', app!)).size,
    )
  })

  it('keeps first-register closed; create-admin makes the first admin, who signs in over HTTPS', async () => {
    // Closed by every spelling of the path, through Caddy as a visitor reaches it.
    for (const spelling of [
      '/cms/api/staff/first-register',
      '/cms/api/staff/first-regist%65r',
      '/cms/api/staff/first-register/',
      '/cms//api/staff/first-register',
    ]) {
      const register = await shop(spelling, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'intruder@example.com', password: OWNER.password }),
      })
      expect(register.status, spelling).toBe(403)
    }

    await createAdmin('create-admin', shopEnv, httpsBase)
    const setCookie = await signIn(shop, httpsBase)
    expect(setCookie).toMatch(/;\s*Secure/i)
    cookie = setCookie.split(';')[0]!
    const me = await shop('/api/admin/stats', { headers: { cookie } })
    expect(me.status).toBe(200)
  })

  it('sells a PDF: paid through the chain, confirmed, mailed exactly once, downloaded over HTTPS', async () => {
    productId = await addPdf(shop, httpsBase, cookie)

    // Both workers hear the chain's push stream (the standby too, for a takeover).
    for (const name of ['worker-1', 'worker-2'])
      await waitFor(`${name} hearing the push stream`, () =>
        worker(name).output().includes('chain push stream connected'),
      )
    for (const name of ['worker-1', 'worker-2'])
      expect(worker(name).output()).not.toContain(SOCKET_KEY)
    const orderId = await buyAndPay(productId, 'reader@example.com')
    const paid = await paidWithLink(orderId)

    const toBuyer = () => linkMailsTo('reader@example.com')
    await waitFor('the download e-mail', () => toBuyer().length > 0)
    // A few more passes of the worker (and its standby): still one e-mail.
    const passes = smtp.mails.length
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    expect(toBuyer()).toHaveLength(1)
    expect(smtp.mails.length).toBeGreaterThanOrEqual(passes)
    const link = new RegExp(`${httpsBase}(/download/pdf/[A-Za-z0-9_-]+)`).exec(
      decoded(toBuyer()[0]!),
    )
    expect(link?.[1]).toBe(paid.downloadUrl)

    await expectThePdf(shop, link![1]!)
  })

  it('runs one worker at a time; killed, it is replaced by the standby within the lease time', async () => {
    const [first, second] = [worker('worker-1'), worker('worker-2')]
    await waitFor('one worker holding the lease', () => holds(first) || holds(second))
    const active = holds(first) ? first : second
    const standby = active === first ? second : first
    expect(holds(standby)).toBe(false)
    measured.webRss = `${Math.round(rssKb(procs.find((p) => p.name === 'web')!.child.pid!) / 1024)} MB`
    measured.workerRss = `${Math.round(rssKb(active.child.pid!) / 1024)} MB`
    measured.standbyRss = `${Math.round(rssKb(standby.child.pid!) / 1024)} MB`

    active.child.kill('SIGKILL')
    const killedAt = Date.now()
    await active.exited
    await waitFor('the standby holding the lease', () => holds(standby), 30_000)
    const takeover = Date.now() - killedAt
    measured.takeover = `${(takeover / 1000).toFixed(1)} s`
    expect(takeover).toBeLessThan((4 + 4 / 3 + 3) * 1000)

    const orderId = await buyAndPay(productId, 'second@example.com')
    await waitFor('the second order paid by the standby', async () => {
      const status = (await (await shop(`/api/orders/${orderId}/payment-status`)).json()) as {
        status: string
      }
      return status.status === 'PAID'
    })
  })
})

/** The commands docs/production.md gives to back up and to restore the database (in `db`). */
function backupCommands(): { dump: string; restore: string } {
  const text = fs.readFileSync(path.join(repo, 'docs/production.md'), 'utf8').replace(/\s+/g, ' ')
  const inDb = (tool: string, redirect: string) => {
    const command = new RegExp(
      `docker compose exec -T db sh -c '(${tool} [^']+)' ${redirect}`,
    ).exec(text)?.[1]
    if (!command) throw new Error(`docs/production.md gives no ${tool} command`)
    return command
  }
  return { dump: inDb('pg_dump', '>'), restore: inDb('pg_restore', '<') }
}

/**
 * One of those commands, as `docker compose exec -T db sh -c '...'` runs it in the database's
 * container (POSTGRES_USER and POSTGRES_DB set, the server local), here against the throwaway
 * cluster; its output to a file or its input from one.
 */
function inDatabaseContainer(
  command: string,
  database: TestPostgres,
  io: { stdout: string } | { stdin: string },
) {
  const uri = new URL(database.uri)
  const file = fs.openSync('stdout' in io ? io.stdout : io.stdin, 'stdout' in io ? 'w' : 'r')
  try {
    const run = spawnSync('sh', ['-c', command], {
      env: {
        PATH: `${postgresBinaries()}:${process.env.PATH ?? '/usr/bin:/bin'}`,
        PGHOST: uri.hostname,
        PGPORT: uri.port,
        POSTGRES_USER: uri.username,
        POSTGRES_DB: uri.pathname.slice(1),
      },
      stdio: 'stdout' in io ? ['ignore', file, 'pipe'] : [file, 'pipe', 'pipe'],
      encoding: 'utf8',
    })
    expect(run.status, `${command}: ${run.stderr}`).toBe(0)
    expect(run.stderr).toBe('')
  } finally {
    fs.closeSync(file)
  }
}

async function query<T>(uri: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: uri })
  await client.connect()
  try {
    return (await client.query(sql, values)).rows as T[]
  } finally {
    await client.end()
  }
}

/** The migrations a production start applies on PostgreSQL: cms/src/migrations-postgres. */
const postgresMigrations = () =>
  fs
    .readdirSync(path.join(repo, 'cms/src/migrations-postgres'))
    .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
    .map((file) => ({ name: file.replace(/\.ts$/, ''), batch: 1 }))
    .sort((a, b) => a.name.localeCompare(b.name))

const appliedMigrations = (uri: string) =>
  query<{ name: string; batch: number }>(
    uri,
    'SELECT name, batch::int AS batch FROM payload_migrations ORDER BY name',
  )

/** A production process as the shop's user, stopped as Docker stops it: it exits with 0. */
async function stopGracefully(proc: Proc) {
  proc.child.kill('SIGTERM')
  expect(await proc.exited, `${proc.name}:\n${proc.output().slice(-2000)}`).toBe(0)
}

/** The bundle's web process on `env`, resolved once it answers /healthz. */
async function startWeb(name: string, env: Record<string, string>) {
  const started = Date.now()
  const web = start(name, [...asUser, ...nodeArgs, 'dist/web.mjs'], env)
  await Promise.race([
    waitFor(
      `${name} healthy`,
      async () => web.child.exitCode === null && (await fetch(`${env.PUBLIC_URL}/healthz`)).ok,
      60_000,
    ),
    web.exited.then((code) => {
      throw new Error(`${name} exited ${code}`)
    }),
  ]).catch((error: Error) => {
    throw new Error(`${error.message}\n${web.output()}`)
  })
  return { web, seconds: ((Date.now() - started) / 1000).toFixed(1) }
}

let database: TestPostgres | undefined
let restored: TestPostgres | undefined
const postgresData = path.join(work, 'data-postgres')
const restoredData = path.join(work, 'data-restored')

describe('the production bundle on PostgreSQL', () => {
  let postgresEnv: Record<string, string> = {}
  let client: Client
  let postgresWeb: Proc
  let postgresCookie = ''
  let sold: {
    productId: number
    orderId: string
    downloadUrl: string
    address: string
    adminOrders: unknown
  }

  it('starts on a fresh database, applying the migrations, and sells a PDF paid through the chain', async () => {
    const started = Date.now()
    database = await startPostgres()
    fs.mkdirSync(postgresData)
    if (asUser.length > 0) execFileSync('chown', ['--reference', data, postgresData])
    // The same settings as the SQLite shop but the database, the data and the wallet; no Caddy
    // in front: Caddy's part was seen above.
    const port = await freePort()
    postgresEnv = {
      ...shopEnv,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URI: database.uri,
      DATA_DIR: postgresData,
      BSV_XPUB: POSTGRES_XPUB,
    }
    client = direct(postgresEnv.PUBLIC_URL!)
    const { web, seconds } = await startWeb('web-postgres', postgresEnv)
    postgresWeb = web
    measured.postgresStart = `${seconds} s`
    const postgresWorker = start(
      'worker-postgres',
      [...asUser, ...workerArgs, 'dist/worker.mjs'],
      postgresEnv,
    )

    // Migrated, not pushed: a push leaves a `dev` row (batch -1) among the applied migrations.
    expect(await appliedMigrations(database.uri)).toEqual(postgresMigrations())
    expect(postgresMigrations().length).toBeGreaterThan(0)

    await createAdmin('create-admin-postgres', postgresEnv, postgresEnv.PUBLIC_URL!)
    postgresCookie = (await signIn(client, postgresEnv.PUBLIC_URL!)).split(';')[0]!
    const productId = await addPdf(client, postgresEnv.PUBLIC_URL!, postgresCookie)

    await waitFor('the worker on PostgreSQL holding the lease', () => holds(postgresWorker))
    const orderId = await buyAndPay(productId, 'postgres-reader@example.com', client)
    const paid = await paidWithLink(orderId, client)
    const mails = () => linkMailsTo('postgres-reader@example.com')
    await waitFor('the download e-mail', () => mails().length > 0)
    const link = new RegExp(`${postgresEnv.PUBLIC_URL}(/download/pdf/[A-Za-z0-9_-]+)`).exec(
      decoded(mails()[0]!),
    )?.[1]
    expect(link).toBe(paid.downloadUrl)
    await expectThePdf(client, link!)

    const info = (await (await client(`/api/orders/${orderId}/info`)).json()) as {
      paymentAddress: string
    }
    const list = await client('/api/admin/orders', { headers: { cookie: postgresCookie } })
    expect(list.status).toBe(200)
    const adminOrders = await list.json()
    expect(adminOrders).toMatchObject({ orders: [{ id: orderId, status: 'PAID' }] })
    sold = { productId, orderId, downloadUrl: link!, address: info.paymentAddress, adminOrders }
    measured.postgresSale = `${((Date.now() - started) / 1000).toFixed(1)} s`
  })

  it("restores a pg_dump with docs/production.md's commands; the shop serves the same order from it", async () => {
    expect(sold).toBeDefined()
    const started = Date.now()
    const commands = backupCommands()
    // The nightly backup, taken while the shop runs; the files with it.
    const dump = path.join(work, 'shop.dump')
    inDatabaseContainer(commands.dump, database!, { stdout: dump })
    expect(fs.readFileSync(dump).subarray(0, 5).toString()).toBe('PGDMP')
    execFileSync('cp', ['-a', postgresData, restoredData])

    // The shop stopped, its database gone; a fresh empty one restored from the dump.
    await stopGracefully(postgresWeb)
    await stopGracefully(procs.find((p) => p.name === 'worker-postgres')!)
    restored = await startPostgres()
    await database!.stop()
    inDatabaseContainer(commands.restore, restored, { stdin: dump })
    measured.postgresRestore = `${((Date.now() - started) / 1000).toFixed(1)} s`

    // The same settings (.env kept with the backups) on the restored database and files.
    const { seconds } = await startWeb('web-restored', {
      ...postgresEnv,
      DATABASE_URI: restored.uri,
      DATA_DIR: restoredData,
    })
    measured.restoredStart = `${seconds} s`
    // Nothing left to migrate, nothing pushed.
    expect(await appliedMigrations(restored.uri)).toEqual(postgresMigrations())

    const status = (await (await client(`/api/orders/${sold.orderId}/payment-status`)).json()) as {
      status: string
      downloadUrl: string | null
    }
    expect(status).toMatchObject({ status: 'PAID', downloadUrl: sold.downloadUrl })
    await expectThePdf(client, sold.downloadUrl)
    // The owner's session (PAYLOAD_SECRET kept) and the admin's order list, as before.
    const list = await client('/api/admin/orders', { headers: { cookie: postgresCookie } })
    expect(list.status).toBe(200)
    expect(await list.json()).toEqual(sold.adminOrders)
    // The next order takes the next address, not one already sold.
    const next = await client('/api/orders/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        productId: sold.productId,
        userEmail: 'after-restore@example.com',
        tokenAddress: null,
      }),
    })
    const created = (await next.json()) as { orderId: string }
    expect(next.status, JSON.stringify(created)).toBe(201)
    const info = (await (await client(`/api/orders/${created.orderId}/info`)).json()) as {
      paymentAddress: string
    }
    expect(info.paymentAddress).toMatch(/^[mn1][1-9A-HJ-NP-Za-km-z]{25,34}$/)
    expect(info.paymentAddress).not.toBe(sold.address)
  })
})

describe('the production bundle, afterwards', () => {
  it('never writes outside its data directory', () => {
    // Changed in the install since the processes started: nothing.
    const inApp = execFileSync('find', [app, '-newermt', `@${Math.floor(marker / 1000)}`])
      .toString()
      .trim()
    expect(inApp).toBe('')
    if (asUser.length > 0) {
      // Anything the shop's user owns outside its data directory and its home (/tmp in the image),
      // made or changed since the processes started (a run killed before its clean-up leaves
      // its own folders behind, owned by the same user). Other suites create and remove their
      // folders in /tmp meanwhile: a folder that vanishes while find reads it is not an error
      // (find still says so and exits 1), any other is.
      const scan = spawnSync(
        'find',
        [
          '/tmp',
          app,
          '-ignore_readdir_race',
          '-xdev',
          '-user',
          USER,
          '-newerct',
          `@${Math.floor(marker / 1000)}`,
          '-not',
          '-path',
          `${data}*`,
          '-not',
          '-path',
          `${home}*`,
          '-not',
          '-path',
          `${postgresData}*`,
          '-not',
          '-path',
          `${restoredData}*`,
        ],
        { encoding: 'utf8' },
      )
      const problems = scan.stderr
        .split('\n')
        .filter((line) => line && !/: No such file or directory$/.test(line))
      expect(problems).toEqual([])
      const owned = scan.stdout.trim()
      expect(owned).toBe('')
    }
  })
})
