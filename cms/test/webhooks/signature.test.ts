import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { createLocalReq } from 'payload'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { deliverWebhook, queueWebhook } from '../../src/operations/webhooks/webhooks'
import type { WebhookDelivery } from '../../src/payload-types'
import { createOrder, getOrder, productIdOf } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * The owner's webhook is signed at each attempt with that attempt's time, in one header as
 * Stripe's is (`Shop-Sig: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`): a receiver
 * refuses a stale t, so a captured request cannot be replayed later, and a retry (with a fresh
 * t) still passes; it dedupes on the body's deliveryId. A time fixed when the delivery is queued
 * and sent again on every retry for hours would leave a receiver unable to tell a replay from a
 * retry.
 */

const SECRET = 'webhook-secret-for-tests-0123'
type Received = { header: string; body: string }
const received: Received[] = []
/** The owner's receiver: it fails a delivery's first attempt, then accepts. */
const receiver = http.createServer((req, res) => {
  let body = ''
  req.on('data', (chunk) => (body += chunk))
  req.on('end', () => {
    received.push({ header: String(req.headers['shop-sig']), body })
    res.statusCode = received.length === 1 ? 500 : 204
    res.end()
  })
})

let shop: TestShop
let url: string

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/shop`
  shop = await startTestShop()
})

afterAll(async () => {
  await shop?.close()
  await new Promise<void>((resolve) => receiver.close(() => resolve()))
})

afterEach(() => {
  vi.useRealTimers()
})

/** The parts of a `Shop-Sig` header: `t=<unix seconds>,v1=<hex>`. */
function parse(header: string): { t: number; v1: string } {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header)
  expect(match, header).not.toBeNull()
  return { t: Number(match![1]), v1: match![2]! }
}

const hmac = (text: string) => crypto.createHmac('sha256', SECRET).update(text).digest('hex')

describe("the owner's webhook", () => {
  it("signs each attempt with the attempt's own time, over the time and the body", async () => {
    const orderId = await createOrder(shop, await productIdOf(shop.payload, 'DIGITAL'))
    const req = await createLocalReq({}, shop.payload)
    const queuedAt = Date.now()
    await queueWebhook({
      payload: shop.payload,
      req,
      event: 'OrderPaid',
      order: await getOrder(shop.payload, orderId),
    })
    const delivery = (
      await shop.payload.find({
        collection: slugs.webhookDeliveries,
        where: { order: { equals: orderId } },
        depth: 0,
      })
    ).docs[0] as WebhookDelivery
    const attempt = (lastAttempt: boolean) =>
      deliverWebhook({
        req,
        deliveryRowId: String(delivery.id),
        webhook: { url, secret: SECRET },
        lastAttempt,
      })

    // The worker runs the job a minute after the event; it fails, and the retry comes later.
    vi.useFakeTimers({ toFake: ['Date'], now: queuedAt + 60_000 })
    await expect(attempt(false)).rejects.toThrow(/HTTP 500/)
    vi.setSystemTime(queuedAt + 60_000 + 20 * 60_000)
    expect(await attempt(false)).toEqual({ sent: true })

    expect(received).toHaveLength(2)
    const [first, retry] = received.map(({ header, body }) => ({ ...parse(header), body }))
    expect(first!.t).toBe(Math.floor((queuedAt + 60_000) / 1000))
    expect(retry!.t).toBe(Math.floor((queuedAt + 60_000 + 20 * 60_000) / 1000))
    for (const { t, v1, body } of [first!, retry!]) {
      expect(v1).toBe(hmac(`${t}.${body}`))
      // Signed over the time too: the same body with another time does not verify.
      expect(v1).not.toBe(hmac(`${t - 1}.${body}`))
    }
    // The receiver dedupes on the delivery id, the same in every attempt.
    const [a, b] = [first!, retry!].map(({ body }) => JSON.parse(body) as Record<string, unknown>)
    expect(a!.deliveryId).toBe(delivery.deliveryId)
    expect(b!.deliveryId).toBe(delivery.deliveryId)
    expect([a!.isRedelivery, b!.isRedelivery]).toEqual([false, true])
  })
})
