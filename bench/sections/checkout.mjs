// Checkout: a rush of 50 concurrent buyers on the printed book (its stock raised to 100,000
// first), beside Payload's own REST writing a document with 50 clients in the same run; then the
// stock taken against the orders stored.
import { base, log, phaseOn, resultsOn, run } from '../lib/context.mjs'
import { adminHeaders, adminSetStock } from '../lib/admin.mjs'
import { openShopDb, whenNotBusy } from '../lib/database.mjs'
import { cannon, getJson } from '../lib/http.mjs'
import { SHIPPING } from '../lib/orders.mjs'
import { shop, waitForQuiet } from '../lib/shop.mjs'
import { payAndTime } from './detection.mjs'
import { withMemory } from './memory.mjs'

/** The section on the shop running now, whose database is on `engine`. */
export async function benchCheckout({ engine = 'sqlite' } = {}) {
  const products = await getJson(`${base}/api/admin/products`, { headers: adminHeaders() })
  const book = products.find((p) => p.type === 'PHYSICAL' && !p.deletedAt)
  const initial = 100_000
  await adminSetStock(book, initial)
  const duration = run.quick ? 3 : 10
  const payloadRuns = await payloadWrites(duration)
  await waitForQuiet('checkout, after Payload REST')
  const { checkout, window } = await rush(book, duration, phaseOn(engine, 'checkout'))
  const afterRush = await detectionAfterRush(book)
  const { after, orders } = await stockAndOrders(book)

  const results = (resultsOn(engine).checkout = {
    window,
    ours: loadNumbers(checkout),
    payloadRest: meanOfRuns(payloadRuns),
    ordersInDb: orders,
    stockExact: initial - after === orders && after >= 0,
    afterRush,
  })
  const ours = results.ours
  const name = phaseOn(engine, 'checkout')
  log(
    `${name}: after the rush: a rush buyer paid in ${afterRush.rushBuyerMs} ms, a new buyer in ${afterRush.newBuyerMs} ms (to PAYMENT_DETECTED)`,
  )
  log(
    `${name}: ${ours.perSecond} orders/s, p50 ${ours.p50} ms, p99 ${ours.p99} ms, statuses ${JSON.stringify(ours.statuses)}, timeouts ${ours.timeouts}; Payload REST create ${results.payloadRest.perSecond}/s`,
  )
}

/**
 * Payload's own REST writing a document, in the same run and from rest, as the rush. Orders are
 * closed to /cms/api for every role (only checkout creates them), so this is its lightest write:
 * a timeline entry. It runs before the rush, not after it: after the rush the worker is still
 * taking up its 2,000 new orders (their e-mails, their first looks), and Payload's rate would
 * depend on how long that lasts. Twice, from rest each time, and the mean of the two: from one
 * run to the next on these machines it writes 82 to 136 a second, more spread than the rush's own.
 */
async function payloadWrites(duration) {
  const payloadRuns = []
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (attempt > 0) await waitForQuiet('checkout, between Payload REST runs')
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
  return payloadRuns
}

/**
 * 50 buyers, each request a buyer of its own (address and e-mail), as a rush through the proxy.
 * The window is when it ran, in ms after the web process's launch (for `--profile`).
 */
async function rush(book, duration, phase) {
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
  const web = shop.procs.find((p) => p.launchedAt)
  const window = { fromMs: Date.now() - web.launchedAt }
  const checkout = await withMemory(phase, () =>
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
  return { checkout, window }
}

/**
 * Detection while the worker takes up the rush's orders (their e-mails, their first looks): the
 * rush's last buyer pays the moment the rush ends, then a buyer who checks out right after it
 * pays at once; each timed from the wallet's broadcast to PAYMENT_DETECTED.
 */
async function detectionAfterRush(book) {
  const db = openShopDb()
  const last = await whenNotBusy(() =>
    db.execute({
      sql: 'select id from orders where product_id = ? order by created_at desc limit 1',
      args: [book.id],
    }),
  )
  db.close()
  const rushBuyerMs = (await payAndTime(String(last.rows[0].id))).detectedMs
  const res = await fetch(`${base}/api/orders/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.255.0.1' },
    body: JSON.stringify({ productId: book.id, userEmail: 'after-rush@example.com', ...SHIPPING }),
  })
  const body = await res.json()
  if (!body.success) throw new Error(`order failed: ${res.status} ${JSON.stringify(body)}`)
  const newBuyerMs = (await payAndTime(body.orderId)).detectedMs
  return { rushBuyerMs, newBuyerMs }
}

/**
 * The copies left and the orders stored, read in one snapshot: checkouts autocannon gave up on
 * may still be committing (each order commits with its copy, so one snapshot must agree).
 */
async function stockAndOrders(book) {
  const db = openShopDb()
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
  return { after: Number(stock.rows[0].n), orders: Number(count.rows[0].n) }
}

/** One autocannon run's numbers, with every status it answered and what timed out. */
function loadNumbers(r) {
  const statuses = Object.fromEntries(
    Object.entries(r.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
  )
  return {
    perSecond: Math.round((r['2xx'] ?? 0) / (r.duration || run.seconds)),
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    answered2xx: r['2xx'],
    statuses,
    errors: r.errors,
    timeouts: r.timeouts,
  }
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
