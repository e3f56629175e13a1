import crypto from 'node:crypto'

import type { Payload, PayloadRequest } from 'payload'

import type { WebhookEvent } from '../../collections/WebhookDeliveries'
import { slugs } from '../../collections/slugs'
import type { Order, WebhookDelivery } from '../../payload-types'

/**
 * The owner's webhook, after BTCPay Server's conventions: a JSON body with a delivery id, the
 * event type and a Unix timestamp, signed with HMAC-SHA256 of the exact body under the shared
 * secret (`Shop-Sig: sha256=<hex>`, as BTCPay's `BTCPay-Sig`); any 2xx is a success, anything
 * else is retried with growing delays (10 s, 1 min, 10 min, 1 h, 6 h), then the delivery is
 * marked failed and stays visible in /cms.
 */
export const SIGNATURE_HEADER = 'Shop-Sig'
export const WEBHOOK_RETRY_DELAYS_MS = [10_000, 60_000, 600_000, 3_600_000, 21_600_000]
const TIMEOUT_MS = 10_000

export function signWebhookBody(body: string, secret: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`
}

/** What the receiver learns of the order: its state, never the buyer's e-mail or address. */
function bodyOf(event: WebhookEvent, order: Order, deliveryId: string): string {
  return JSON.stringify({
    deliveryId,
    type: event,
    timestamp: Math.floor(Date.now() / 1000),
    isRedelivery: false,
    orderId: order.id,
    order: {
      status: order.status,
      productName: order.productName,
      productType: order.productType,
      amountSatoshiExpected: order.amountSatoshiExpected,
      amountSatoshiReceived: order.amountSatoshiReceived ?? 0,
      paymentTxid: order.paymentTxid ?? null,
      flags: {
        paidLate: Boolean(order.flags?.paidLate),
        paidPartial: Boolean(order.flags?.paidPartial),
        paidOver: Boolean(order.flags?.paidOver),
        paidInvalid: Boolean(order.flags?.paidInvalid),
      },
    },
  })
}

/** Queues one delivery with the change that caused it (once per order, event and key suffix). */
export async function queueWebhook({
  payload,
  req,
  event,
  order,
  keySuffix,
}: {
  payload: Payload
  req: PayloadRequest
  event: WebhookEvent
  order: Order
  keySuffix?: string
}): Promise<void> {
  const key = `${event}:${order.id}${keySuffix ? `:${keySuffix}` : ''}`
  const existing = await payload.count({
    req,
    collection: slugs.webhookDeliveries,
    where: { key: { equals: key } },
  })
  if (existing.totalDocs > 0) return
  const deliveryId = crypto.randomUUID()
  await payload.create({
    req,
    collection: slugs.webhookDeliveries,
    depth: 0,
    data: {
      key,
      deliveryId,
      event,
      order: order.id,
      body: bodyOf(event, order, deliveryId),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: new Date().toISOString(),
    },
  })
}

type Log = Pick<Payload['logger'], 'info' | 'warn' | 'error'>

/** Posts the due deliveries (the payment worker calls this every pass). */
export async function sendPendingWebhooks({
  payload,
  webhook,
  logger = payload.logger,
  retryDelaysMs = WEBHOOK_RETRY_DELAYS_MS,
  limit = 20,
}: {
  payload: Payload
  webhook: { url: string; secret: string } | undefined
  logger?: Log
  retryDelaysMs?: readonly number[]
  limit?: number
}): Promise<{ sent: number; failed: number }> {
  if (!webhook) return { sent: 0, failed: 0 }
  const due = await payload.find({
    collection: slugs.webhookDeliveries,
    where: {
      and: [
        { status: { equals: 'pending' } },
        { nextAttemptAt: { less_than_equal: new Date().toISOString() } },
      ],
    },
    sort: 'nextAttemptAt',
    limit,
    depth: 0,
    pagination: false,
  })
  let sent = 0
  let failed = 0
  for (const delivery of due.docs as WebhookDelivery[]) {
    const attempts = delivery.attempts + 1
    let status: number | null = null
    let error: string | null = null
    try {
      // A redelivery says so, with the same id and otherwise the same body.
      const body =
        attempts > 1
          ? delivery.body.replace('"isRedelivery":false', '"isRedelivery":true')
          : delivery.body
      const response = await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'BookShop-Webhooks/1',
          [SIGNATURE_HEADER]: signWebhookBody(body, webhook.secret),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
      status = response.status
      await response.arrayBuffer().catch(() => undefined)
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure)
    }
    const ok = status !== null && status >= 200 && status < 300
    const gaveUp = !ok && attempts > retryDelaysMs.length
    await payload.update({
      collection: slugs.webhookDeliveries,
      id: delivery.id,
      depth: 0,
      data: {
        attempts,
        lastStatus: status,
        lastError: ok ? null : (error ?? `HTTP ${status}`),
        ...(ok
          ? { status: 'sent', sentAt: new Date().toISOString() }
          : gaveUp
            ? { status: 'failed' }
            : {
                nextAttemptAt: new Date(Date.now() + retryDelaysMs[attempts - 1]!).toISOString(),
              }),
      },
    })
    const orderId = typeof delivery.order === 'object' ? delivery.order.id : delivery.order
    if (ok) {
      sent += 1
      logger.info({ orderId, event: delivery.event, attempts }, 'webhook delivered')
    } else {
      failed += 1
      logger.warn(
        { orderId, event: delivery.event, attempts, status, error, gaveUp },
        gaveUp ? 'webhook delivery failed for good' : 'webhook delivery failed; will retry',
      )
    }
  }
  return { sent, failed }
}
