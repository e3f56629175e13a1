// Payment detection: the worker against the chain simulator at WhatsOnChain's 3 requests/s,
// with N watched orders in the database; three payments at each size, each timed from the
// wallet's broadcast to PAYMENT_DETECTED and from its block to PAID, and the chain calls a
// minute meanwhile. The largest size is measured again with the push stream down, and with it
// connected but deaf.
import crypto from 'node:crypto'

import { P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction, Utils } from '@bsv/sdk'

import { base, log, phaseOn, resultsOn, run, simBase, sleep, waitUntil } from '../lib/context.mjs'
import { openShopDb, whenNotBusy } from '../lib/database.mjs'
import { getJson, postJson } from '../lib/http.mjs'
import { withMemory } from './memory.mjs'

/** The section on the shop running now, whose database is on `engine`. */
export async function benchDetection({ engine = 'sqlite' } = {}) {
  const products = await getJson(`${base}/api/products`)
  const pdf = products.find((p) => p.type === 'PDF')
  // Background orders carry the PDF product (no stock involved). This section runs before the
  // checkout one, whose thousands of fresh orders would otherwise be part of the watch list.
  let have = 0
  const rows = {}
  for (const size of run.sizes) {
    await insertWatchedOrders(size - 1 - have, pdf.id)
    have = size - 1
    rows[size] = await detectionTrials(phaseOn(engine, `detection ${size}`), pdf)
    have += 3
  }
  // The same at the largest size with WhatsOnChain's push stream down (polling alone, as the
  // worker goes on when the stream drops), and with it connected but deaf (pings and block
  // headers, no mempool frames: the worker must find it out and poll as if it were down).
  const largest = run.sizes.at(-1)
  const fallbacks = [
    ['polling', 'push stream down', 'polling only', '/simulator/push', { on: false }, { on: true }],
    [
      'deaf',
      'push stream deaf',
      'deaf stream',
      '/simulator/faults',
      { deafStream: true },
      { deafStream: false },
    ],
    // WhatsOnChain's API down: the push stream finds the payment, ARC follows it to its block.
    [
      'woc-down',
      'WhatsOnChain API down',
      'WhatsOnChain down',
      '/simulator/outage',
      { on: true },
      { on: false },
    ],
  ]
  for (const [key, label, name, path, on, off] of fallbacks) {
    await postJson(`${simBase}${path}`, on)
    try {
      rows[`${largest}-${key}`] = {
        label: `${largest} watched, ${label}`,
        ...(await detectionTrials(phaseOn(engine, `detection ${largest}, ${name}`), pdf)),
      }
    } finally {
      await postJson(`${simBase}${path}`, off)
    }
  }
  resultsOn(engine).detection = rows
  resultsOn(engine).doubleSpend = await doubleSpendTrials(phaseOn(engine, 'double-spend'))
  await removeWatchedOrders()
}

/**
 * Three payments from the test wallet, each detected and followed on ARC, then double-spent:
 * each timed from the conflicting spend to its order leaving PAYMENT_DETECTED.
 */
async function doubleSpendTrials(name) {
  const products = await getJson(`${base}/api/products`)
  const pdf = products.find((p) => p.type === 'PDF')
  const trials = []
  for (let i = 0; i < 3; i += 1) {
    const orderId = await createOrder(pdf.id)
    const info = await getJson(`${base}/api/orders/${orderId}/info`)
    const txid = await payFromWallet(info.paymentAddress, Math.round(Number(info.amountBSV) * 1e8))
    await waitUntil(async () => (await paymentStatus(orderId)) === 'PAYMENT_DETECTED', {
      timeoutMs: 60_000,
      everyMs: 20,
      what: 'the payment to be detected',
    })
    // Followed on ARC meanwhile (submitted at once, asked on its schedule).
    await sleep(3000)
    await postJson(`${simBase}/simulator/double-spend`, { txid })
    const spentAt = Date.now()
    await waitUntil(async () => (await paymentStatus(orderId)) !== 'PAYMENT_DETECTED', {
      timeoutMs: 120_000,
      everyMs: 20,
      what: 'the double-spent order to leave PAYMENT_DETECTED',
    })
    trials.push(Date.now() - spentAt)
  }
  log(`${name}: ${trials.join(', ')} ms`)
  return {
    ms: trials,
    medianMs: trials.toSorted((a, b) => a - b)[1],
    maxMs: Math.max(...trials),
  }
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
    await sleep(run.quick ? 3000 : 12_000)
    const calls0 = await simulatorCalls()
    const t0 = Date.now()
    for (let i = 0; i < 3; i += 1) {
      const { detectedMs, paidMs } = await payAndConfirm(pdf)
      trials.push(detectedMs)
      confirmations.push(paidMs)
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
 * One new order, paid by a wallet: the time from the payment to PAYMENT_DETECTED (polled every
 * 20 ms), then one block with the payment and the time until the order is PAID
 * (CONFIRMATIONS_REQUIRED=1).
 */
async function payAndConfirm(pdf) {
  const orderId = await createOrder(pdf.id)
  const { detectedMs } = await payAndTime(orderId)
  await postJson(`${simBase}/simulator/mine`, { blocks: 1 })
  const minedAt = Date.now()
  await waitUntil(async () => (await paymentStatus(orderId)) === 'PAID', {
    timeoutMs: 120_000,
    everyMs: 20,
    what: 'the order to be paid',
  })
  return { detectedMs, paidMs: Date.now() - minedAt }
}

/** A wallet pays the order now: the time from the broadcast to PAYMENT_DETECTED (or PAID). */
export async function payAndTime(orderId) {
  await payOrder(orderId)
  const paidAt = Date.now()
  await waitUntil(async () => ['PAYMENT_DETECTED', 'PAID'].includes(await paymentStatus(orderId)), {
    timeoutMs: 300_000,
    everyMs: 20,
    what: 'the payment to be detected',
  })
  return { detectedMs: Date.now() - paidAt }
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

/**
 * A wallet's real payment (a signed transaction spending the wallet's own coin, funded by the
 * faucet), broadcast through WhatsOnChain's API: a double-spend of it competes for that coin.
 */
async function payFromWallet(address, satoshis) {
  const key = PrivateKey.fromRandom()
  const wallet = key.toAddress('testnet')
  const { txid: funding } = await postJson(`${simBase}/simulator/faucet`, {
    address: wallet,
    satoshis: satoshis + 1000,
  })
  const source = Transaction.fromHex(
    await (await fetch(`${simBase}/v1/bsv/test/tx/${funding}/hex`)).text(),
  )
  const tx = new Transaction()
  tx.addInput({
    sourceTransaction: source,
    sourceOutputIndex: 0,
    unlockingScriptTemplate: new P2PKH().unlock(key),
  })
  tx.addOutput({ lockingScript: new P2PKH().lock(address), satoshis })
  tx.addOutput({ lockingScript: new P2PKH().lock(wallet), change: true })
  await tx.fee(new SatoshisPerKilobyte(100))
  await tx.sign()
  return postJson(`${simBase}/v1/bsv/test/tx/raw`, { txhex: tx.toHex() })
}

/** A buyer's wallet paying an order: the exact amount to its address, into the mempool. */
async function payOrder(orderId) {
  const info = await getJson(`${base}/api/orders/${orderId}/info`)
  const satoshis = Math.round(Number(info.amountBSV) * 1e8)
  await postJson(`${simBase}/simulator/faucet`, { address: info.paymentAddress, satoshis })
}

const paymentStatus = async (orderId) =>
  (await getJson(`${base}/api/orders/${orderId}/payment-status`)).status

/** Every WhatsOnChain API call the simulator has answered so far. */
const simulatorCalls = async () => (await getJson(`${simBase}/healthz`)).apiRequests

/** Address indexes of the bench's own orders: far above the shop's, and each once. */
let benchAddressIndex = 1_000_000_000

const WATCHED_EMAIL = 'watched@example.com'

/** Watched orders the worker must keep looking at, spread over the 24 h monitoring window. */
async function insertWatchedOrders(count, productId) {
  const db = openShopDb()
  const now = Date.now()
  let inserted = 0
  while (inserted < count) {
    const batch = []
    for (let i = 0; i < 500 && inserted < count; i += 1, inserted += 1)
      batch.push(watchedOrder(now, productId))
    await whenNotBusy(() => db.batch(batch, 'write'))
  }
  db.close()
}

/**
 * One watched order created at a random time in the last 24 hours: younger than the 20-minute
 * expiry it awaits payment, older it is expired and still watched for late payments.
 */
function watchedOrder(now, productId) {
  const windowMs = 24 * 3_600_000
  const expiryMs = 20 * 60_000
  const created = now - Math.floor(Math.random() * windowMs)
  const expires = created + expiryMs
  const address = Utils.toBase58Check(Array.from(crypto.randomBytes(20)), [0x6f])
  return {
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
  }
}

/**
 * The watched orders go once detection is measured: with 10,000 of them the worker never comes
 * to rest (about 165 chain calls a minute), and the checkout rush would wait for a quiet shop
 * and come to a busy one anyway.
 */
async function removeWatchedOrders() {
  const db = openShopDb()
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
