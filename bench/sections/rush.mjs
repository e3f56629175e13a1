// The rush: how fast a shop settles many orders paid at once. On a fresh production shop (its
// web process and worker, the chain simulator asked at test mode's 50 requests/s, the local SMTP
// server), N buyers check out the PDF, every one of them pays at the same moment, one block is
// mined; then the time from the payments until every order is PAYMENT_DETECTED, from the block
// until every order is PAID (orders/s) and until every buyer's "Payment received" e-mail has
// reached the SMTP server (mails/s), and the database's write transactions per paid order over
// the whole rush (bench/lib/commits.mjs says how each engine's are counted). Each variant on each
// engine: an empty database, one holding a year of past orders, and one right after a burst of
// orders expired unpaid.
import fs from 'node:fs'
import path from 'node:path'

import { addProducts, adminHeaders, adminLogin, adminSetStock, createAdmin } from '../lib/admin.mjs'
import { countCommits } from '../lib/commits.mjs'
import {
  base,
  engineName,
  log,
  profileDir,
  root,
  run,
  simBase,
  sleep,
  waitUntil,
} from '../lib/context.mjs'
import { openShopDb, whenNotBusy } from '../lib/database.mjs'
import { getJson } from '../lib/http.mjs'
import {
  checkoutMany,
  DETECTED_STATUSES,
  mineBlock,
  PAID_STATUSES,
  payAll,
} from '../lib/orders.mjs'
import { insertPastOrders } from '../lib/past-orders.mjs'
import { postgresCluster } from '../lib/postgres.mjs'
import { mailsReceived } from '../lib/servers.mjs'
import {
  currentDatabase,
  freshShop,
  productionEnv,
  restartWeb,
  shop,
  startShop,
  stopShop,
  useDatabase,
  waitForQuiet,
} from '../lib/shop.mjs'
import { variantLabel } from '../table.mjs'
import { withMemory } from './memory.mjs'

/**
 * The chain's pace for the rush: test mode's (the worker asks the simulator up to 50 times a
 * second), where the settling targets are set. At WhatsOnChain's free 3 a second, reading 1,000
 * paid addresses after the block takes 50 calls (20 addresses each), 17 s, whatever the shop
 * does; a shop expecting rushes uses a key (10 a second and more).
 */
const RUSH_ENV = { WOC_MAX_REQUESTS_PER_SECOND: '50' }

export async function benchRush() {
  const { orders, past, expired, variants } = run.rush
  run.results.rush = { orders, past, expired, runs: [] }
  for (const engine of run.engines) {
    for (const variant of variants) {
      const label = `${engineName(engine)}, ${variantLabel(variant, run.rush)}`
      log(`rush, ${label}: ${orders} PDF orders`)
      const t0 = Date.now()
      const result = await rushVariant(engine, variant, label)
      const totalMs = Date.now() - t0
      run.results.rush.runs.push({ engine, variant, totalMs, ...result })
      const r = result
      log(
        `rush, ${label}: checkout ${r.checkout.perSecond}/s; detected in ${r.detected?.ms ?? '-'} ms; PAID ${r.paid?.perSecond ?? '-'}/s (${r.paid?.ms ?? '-'} ms); mails ${r.mails?.perSecond ?? '-'}/s (${r.mails?.ms ?? '-'} ms); ${r.commits.perOrder} commits an order${r.unfinished ? `; did not finish: ${r.unfinished}` : ''}; the variant took ${Math.round(totalMs / 1000)} s`,
      )
    }
  }
}

/** One variant on one engine, on a fresh database: its shop, what it holds, then the rush. */
async function rushVariant(engine, variant, label) {
  await stopShop()
  const name = `rush_${engine}_${variant}`
  let drop = async () => undefined
  if (engine === 'postgres') {
    const cluster = await postgresCluster()
    useDatabase(freshShop(name, await cluster.createDatabase(name)))
    drop = () => cluster.dropDatabase(name)
  } else {
    useDatabase(freshShop(name))
  }
  const setup = {}
  let done = false
  try {
    const t0 = Date.now()
    // Orders expire a minute after checkout in the burst before the `expired` variant's rush.
    await startShop('production', {
      profile: run.profile,
      env: RUSH_ENV,
      webEnv: variant === 'expired' ? { ORDER_EXPIRY_MINUTES: '1' } : {},
    })
    await createAdmin(await productionEnv())
    await adminLogin()
    await addProducts()
    // Copies for every checkout of the variant (the catalogue adds 1,000 each): the rush, the
    // expired burst, and the two real orders the past orders are copied from.
    const forSale = await getJson(`${base}/api/admin/products`, { headers: adminHeaders() })
    for (const product of forSale)
      await adminSetStock(product, run.rush.orders + run.rush.expired + 1000)
    const products = await getJson(`${base}/api/products`)
    const pdf = products.find((p) => p.type === 'PDF')
    const book = products.find((p) => p.type === 'PHYSICAL')
    setup.shopMs = Date.now() - t0
    if (variant === 'past')
      Object.assign(setup, await insertPastOrders(run.rush.past, { pdf, book }))
    if (variant === 'expired') setup.expiredMs = await expiredBurst(pdf)
    // A shop holding a year of orders may never come to rest (its worker watches the last 30
    // days' orders): the rush then starts after two minutes, and the row says so.
    setup.rest = await waitForQuiet(`rush, ${label}`, 120_000)
    const result = await withMemory(`rush, ${label}`, () => rushOnce(pdf, variant))
    done = true
    return { ...result, setup }
  } finally {
    const worker = shop?.pids.worker
    await stopShop()
    if (run.profile && worker) keepWorkerProfile(worker, name)
    await drop()
    // A variant's files go once it is measured (a failed one's stay in the run's folder).
    if (done) fs.rmSync(currentDatabase().dataDir, { recursive: true, force: true })
  }
}

/**
 * With `--profile`: the variant's worker profile (written when it stopped) is kept in
 * bench/results as `<variant's name>-worker-<pid>.cpuprofile`, to open in Chrome DevTools.
 */
function keepWorkerProfile(pid, name) {
  const file = fs.readdirSync(profileDir()).find((f) => f.includes(`.${pid}.`))
  if (!file) return
  const kept = path.join(root, 'bench/results', `${name}-worker-${pid}.cpuprofile`)
  fs.mkdirSync(path.dirname(kept), { recursive: true })
  fs.copyFileSync(path.join(profileDir(), file), kept)
  log(`rush: the worker's CPU profile is ${path.relative(root, kept)}`)
}

/**
 * The `expired` variant: `run.rush.expired` buyers check out on a web process that gives them a
 * minute to pay; the web process is then started again with the usual 20 minutes (the rush's own
 * orders get those), and the rush waits until the worker has marked every one EXPIRED and their
 * "order created" e-mails have gone: it comes right after the expiry, onto a worker that still
 * watches them all for late payments. Answers how long the burst and its expiry took.
 */
async function expiredBurst(pdf) {
  const t0 = Date.now()
  const count = run.rush.expired
  const { ids } = await checkoutMany(pdf, count, { prefix: 'unpaid', first: 1_000_000 })
  await restartWeb(RUSH_ENV)
  const db = openShopDb()
  try {
    await waitUntil(
      async () => {
        const [expired, pending] = await whenNotBusy(() =>
          db.batch(
            [
              {
                sql: `select count(*) as n from orders where status = 'EXPIRED' and user_email like 'unpaid-%'`,
                args: [],
              },
              { sql: `select count(*) as n from email_outbox where status = 'pending'`, args: [] },
            ],
            'read',
          ),
        )
        return Number(expired.rows[0].n) === ids.length && Number(pending.rows[0].n) === 0
      },
      { timeoutMs: 600_000, everyMs: 500, what: `the ${count} unpaid orders to expire` },
    )
  } finally {
    db.close()
  }
  log(`rush: ${count} orders checked out and expired in ${Date.now() - t0} ms`)
  return Date.now() - t0
}

/**
 * The rush itself: N checkouts, N payments at once, one block; the times to every order
 * PAYMENT_DETECTED, PAID and e-mailed, and the write transactions meanwhile. Each wait ends after
 * `rushTimeoutMs`: the rush then says what it did not reach (`unfinished`, with how far it got)
 * and answers what it measured until then (null for the rest), and the run goes on.
 */
async function rushOnce(pdf, variant) {
  const n = run.rush.orders
  const database = currentDatabase()
  const db = openShopDb()
  let commits
  try {
    commits = await countCommits(database, db)
    const since = new Date().toISOString()
    const t0 = Date.now()
    const { ids, busy } = await checkoutMany(pdf, n, { prefix: `rush-${variant}` })
    const checkoutMs = Date.now() - t0
    const checkoutWrites = await commits.read()
    const payments = await paymentsOf(db, ids)
    // Nobody has paid yet: an order seen paid now would have an address paid before.
    const early = await countSince(db, since, DETECTED_STATUSES)
    if (early > 0) throw new Error(`${early} rush orders were paid before the rush paid them`)
    const recipients = new Set(
      Array.from({ length: n }, (_, i) => `rush-${variant}-${i}@example.com`),
    )
    const mailsBefore = mailsReceived().length
    const paidMails = () =>
      mailsReceived()
        .slice(mailsBefore)
        .filter(
          (m) => m.subject.startsWith('Payment received') && m.to.some((t) => recipients.has(t)),
        )
    const calls0 = await simulatorCalls()
    const perSecond = (ms) => Math.round((n / Math.max(ms, 1)) * 1000)
    const result = {
      checkout: { ms: checkoutMs, perSecond: perSecond(checkoutMs), busy },
      detected: null,
      paid: null,
      mails: null,
    }

    const paidFrom = Date.now()
    await payAll(payments)
    const broadcastMs = Date.now() - paidFrom
    let unfinished = await reached(
      () => countSince(db, since, DETECTED_STATUSES),
      n,
      'PAYMENT_DETECTED',
    )
    if (!unfinished) {
      result.detected = { ms: Date.now() - paidFrom, broadcastMs }
      await mineBlock()
      const minedAt = Date.now()
      unfinished = await reached(() => countSince(db, since, PAID_STATUSES), n, 'PAID')
      if (!unfinished) {
        const paidMs = Date.now() - minedAt
        result.paid = {
          ms: paidMs,
          perSecond: perSecond(paidMs),
          chainCalls: (await simulatorCalls()) - calls0,
        }
        unfinished = await reached(() => paidMails().length, n, '"Payment received" e-mails')
        if (!unfinished) {
          const mailsMs = Math.max(...paidMails().map((m) => m.at)) - minedAt
          result.mails = { ms: mailsMs, perSecond: perSecond(mailsMs) }
        }
      }
    }
    // The chain calls from the payments until the last e-mail (or the end of the wait).
    result.chainCalls = (await simulatorCalls()) - calls0
    result.waitedMs = Date.now() - paidFrom
    const counted = await commits.stop()
    commits = undefined
    // Per order paid: all of them, or those the rush got to.
    const settled = await countSince(db, since, PAID_STATUSES)
    const perOrder = (count, of = settled) => (of > 0 ? +(count / of).toFixed(2) : null)
    return {
      ...result,
      ...(unfinished ? { unfinished } : {}),
      commits: {
        engine: database.engine,
        writes: counted.writes,
        paidOrders: settled,
        perOrder: perOrder(counted.writes),
        checkoutPerOrder: perOrder(checkoutWrites, n),
        settlePerOrder: perOrder(counted.writes - checkoutWrites),
        ...(counted.lossless === undefined ? {} : { lossless: counted.lossless }),
        ...(counted.xactCommit === undefined
          ? {}
          : { xactCommitPerOrder: perOrder(counted.xactCommit) }),
      },
    }
  } finally {
    // A rush that failed stops counting too (SQLite's reading of the WAL is a timer).
    await commits?.stop().catch(() => undefined)
    db.close()
  }
}

/** How long the rush waits for each of its steps: ten minutes, or 0.6 s an order beyond. */
const rushTimeoutMs = () => Math.max(600_000, run.rush.orders * 600)

/**
 * Polls `count` every 50 ms until it reaches `n`: undefined then, or, after `rushTimeoutMs`,
 * what was not reached and how far it got.
 */
async function reached(count, n, what) {
  const started = Date.now()
  for (;;) {
    const now = await count()
    if (now >= n) return undefined
    if (Date.now() - started > rushTimeoutMs())
      return `${now} of ${n} ${what} after ${Math.round((Date.now() - started) / 1000)} s`
    await sleep(50)
  }
}

/** The rush's orders created since `since` in one of `statuses`. */
async function countSince(db, since, statuses) {
  const { rows } = await whenNotBusy(() =>
    db.execute({
      sql: `select count(*) as n from orders where created_at >= ? and status in (${statuses.map(() => '?').join(', ')})`,
      args: [since, ...statuses],
    }),
  )
  return Number(rows[0].n)
}

/** What each order asks to be paid: its address and amount. */
async function paymentsOf(db, ids) {
  const payments = []
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500)
    const { rows } = await whenNotBusy(() =>
      db.execute({
        sql: `select payment_address, amount_satoshi_expected from orders where id in (${part.map(() => '?').join(', ')})`,
        args: part,
      }),
    )
    for (const row of rows)
      payments.push({ address: row.payment_address, satoshis: row.amount_satoshi_expected })
  }
  return payments
}

/** Every WhatsOnChain API call the simulator has answered so far. */
const simulatorCalls = async () => (await getJson(`${simBase}/healthz`)).apiRequests
