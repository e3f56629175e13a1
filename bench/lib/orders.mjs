// Buyers' orders as the rush and the past orders make them: checkouts through the shop's API,
// each buyer with an address and an e-mail of its own (as through the TLS proxy), payments by a
// wallet into the simulator's mempool, blocks.
import { base, simBase, sleep, waitUntil } from './context.mjs'
import { getJson, postJson } from './http.mjs'

export const SHIPPING = {
  shippingName: 'Bench Buyer',
  shippingAddressLine1: '1 Bench Street',
  shippingCity: 'Rome',
  shippingPostalCode: '00100',
  shippingCountry: 'IT',
  shippingPhone: '+39 06 000000',
}

/** Statuses of an order whose payment has been seen (or settled), and of a paid order. */
export const DETECTED_STATUSES = [
  'PAYMENT_DETECTED',
  'PAID',
  'PROCESSING_DELIVERY',
  'SHIPPED',
  'ERROR_FULFILLMENT',
]
export const PAID_STATUSES = ['PAID', 'PROCESSING_DELIVERY', 'SHIPPED', 'ERROR_FULFILLMENT']

/** A buyer's address as the proxy forwards it: a distinct one for each number. */
const addressOf = (n) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`

/**
 * One checkout: `{ orderId }`, or `{ busy: seconds }` when the shop answered 503 (saturated: the
 * checkout screen waits Retry-After and tries again). Anything else throws.
 */
export async function checkout(product, buyer, email) {
  const res = await fetch(`${base}/api/orders/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': addressOf(buyer) },
    body: JSON.stringify({
      productId: product.id,
      userEmail: email,
      ...(product.type === 'PHYSICAL' ? SHIPPING : {}),
    }),
  })
  if (res.status === 503) {
    await res.body?.cancel()
    return { busy: Number(res.headers.get('retry-after') ?? 1) }
  }
  const body = await res.json()
  if (!body.success) throw new Error(`checkout failed: ${res.status} ${JSON.stringify(body)}`)
  return { orderId: body.orderId }
}

/**
 * `count` buyers checking out `product` through `connections` at a time, as the checkout screen
 * does (a 503 is tried again after Retry-After). Buyer `first + i` has the e-mail
 * `${prefix}-${i}@example.com`. Answers the order ids and how many answers were 503.
 */
export async function checkoutMany(product, count, { prefix, first = 1, connections = 50 }) {
  const ids = []
  let next = 0
  let busy = 0
  const buyerLoop = async () => {
    for (let i = next++; i < count; i = next++) {
      for (;;) {
        const answer = await checkout(product, first + i, `${prefix}-${i}@example.com`)
        if (answer.orderId) {
          ids.push(answer.orderId)
          break
        }
        busy += 1
        await sleep(answer.busy * 1000)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(connections, count) }, buyerLoop))
  return { ids, busy }
}

/** A buyer's wallet paying: `satoshis` to `address`, into the simulator's mempool. */
export const pay = (address, satoshis) =>
  postJson(`${simBase}/simulator/faucet`, { address, satoshis: Number(satoshis) })

/** Many payments at once, `inFlight` requests at a time. */
export async function payAll(payments, inFlight = 100) {
  let next = 0
  const loop = async () => {
    for (let i = next++; i < payments.length; i = next++)
      await pay(payments[i].address, payments[i].satoshis)
  }
  await Promise.all(Array.from({ length: Math.min(inFlight, payments.length) }, loop))
}

export const mineBlock = () => postJson(`${simBase}/simulator/mine`, { blocks: 1 })

export const orderStatus = async (orderId) =>
  (await getJson(`${base}/api/orders/${orderId}/payment-status`)).status

/** Waits (polling every 50 ms) until the order's status is one of `statuses`. */
export const statusIn = (orderId, statuses, timeoutMs = 300_000) =>
  waitUntil(async () => statuses.includes(await orderStatus(orderId)), {
    timeoutMs,
    everyMs: 50,
    what: `order ${orderId} to be ${statuses.join(' or ')}`,
  })
