import crypto from 'node:crypto'

import type { Payload, PayloadRequest } from 'payload'

import type { OrderWebhookEvent, WebhookEvent } from '../../collections/WebhookDeliveries'
import { slugs } from '../../collections/slugs'
import type { ChainOutage } from '../../email/templates'
import type { Order, WebhookDelivery } from '../../payload-types'

/**
 * The owner's webhook, after BTCPay Server's conventions: a JSON body with a delivery id, the
 * event type and the Unix time of the event; any 2xx is a success, anything else is retried with
 * doubling delays from WEBHOOK_RETRY_BASE_MS (10 s; 10 retries, about 3 hours), then the delivery
 * is marked failed and stays visible in /cms.
 *
 * Each attempt is signed when it is sent, as Stripe signs its events: `Shop-Sig:
 * t=<unix seconds of the attempt>,v1=<hex HMAC-SHA256 of "<t>.<body>" under WEBHOOK_SECRET>`.
 * A receiver checks the signature, refuses a t more than a few minutes old (a replayed request),
 * and dedupes on the body's deliveryId (a retry of one it already took, now with a fresh t).
 */
export const SIGNATURE_HEADER = 'Shop-Sig'
const TIMEOUT_MS = 10_000

/** The `Shop-Sig` header of a body sent at `at`: `t=<unix seconds>,v1=<hex>`. */
export function signWebhookBody(body: string, secret: string, at = new Date()): string {
  const t = Math.floor(at.getTime() / 1000)
  const v1 = crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')
  return `t=${t},v1=${v1}`
}

/**
 * What the receiver learns of the order: its state, never the buyer's e-mail or address.
 * `timestamp` is when the event happened; when an attempt was sent is in its signature.
 */
function bodyOf(event: OrderWebhookEvent, order: Order, deliveryId: string): string {
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

/**
 * What the receiver learns of a chain source outage: since when no look has succeeded, and the
 * source's figures (the API's origin only, never its key; how many addresses fail, not which).
 */
function chainOutageBodyOf(outage: ChainOutage, deliveryId: string): string {
  return JSON.stringify({
    deliveryId,
    type: 'ChainSourceDown' satisfies WebhookEvent,
    timestamp: Math.floor(Date.now() / 1000),
    isRedelivery: false,
    chainSource: {
      source: outage.source,
      origin: outage.origin,
      lastLookOkAt: outage.since,
      alertAfterMinutes: outage.alertAfterMinutes,
      callsToday: outage.usage?.callsToday ?? null,
      capPerDay: outage.usage?.capPerDay ?? null,
      throttledUntil: outage.usage?.throttledUntil ?? null,
      errorsLastHour: Object.fromEntries(
        (outage.usage?.errorsLastHour ?? []).map(({ kind, count }) => [kind, count]),
      ),
      failingAddresses: outage.usage?.failingAddressCount ?? 0,
    },
  })
}

/** Queues one delivery with the change that caused it, once per key. */
async function queueDelivery({
  payload,
  req,
  key,
  event,
  orderId,
  bodyFor,
}: {
  payload: Payload
  req: PayloadRequest
  key: string
  event: WebhookEvent
  orderId: string | null
  bodyFor: (deliveryId: string) => string
}): Promise<void> {
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
      order: orderId,
      body: bodyFor(deliveryId),
      status: 'pending',
      attempts: 0,
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
  event: OrderWebhookEvent
  order: Order
  keySuffix?: string
}): Promise<void> {
  await queueDelivery({
    payload,
    req,
    key: `${event}:${order.id}${keySuffix ? `:${keySuffix}` : ''}`,
    event,
    orderId: order.id,
    bodyFor: (deliveryId) => bodyOf(event, order, deliveryId),
  })
}

/** Queues the ChainSourceDown delivery of one outage (`outageKey` tells outages apart). */
export async function queueChainOutageWebhook({
  payload,
  req,
  outage,
  outageKey,
}: {
  payload: Payload
  req: PayloadRequest
  outage: ChainOutage
  outageKey: string
}): Promise<void> {
  await queueDelivery({
    payload,
    req,
    key: `ChainSourceDown:${outageKey}`,
    event: 'ChainSourceDown',
    orderId: null,
    bodyFor: (deliveryId) => chainOutageBodyOf(outage, deliveryId),
  })
}

/**
 * Posts one delivery: the body of the `deliver-webhook` job (jobs/deliverWebhook.ts), run by the
 * payment worker that holds the lease. A failure is recorded on the row and thrown, and Payload's
 * queue retries the job with backoff; the last failure marks the delivery failed. A redelivery
 * says so, with the same id and otherwise the same body.
 */
export async function deliverWebhook({
  req,
  deliveryRowId,
  webhook,
  lastAttempt,
}: {
  req: PayloadRequest
  deliveryRowId: string
  webhook: { url: string; secret: string } | undefined
  lastAttempt: boolean
}): Promise<{ sent: boolean }> {
  const { payload } = req
  const delivery = (await payload.findByID({
    collection: slugs.webhookDeliveries,
    id: deliveryRowId,
    depth: 0,
    disableErrors: true,
  })) as WebhookDelivery | null
  if (!delivery || delivery.status === 'sent') return { sent: false }
  // WEBHOOK_URL removed since it was queued: nothing to post to, nothing to retry.
  if (!webhook) return { sent: false }
  const attempts = delivery.attempts + 1
  let status: number | null = null
  let error: string | null = null
  try {
    const body =
      attempts > 1
        ? delivery.body.replace('"isRedelivery":false', '"isRedelivery":true')
        : delivery.body
    const response = await fetch(webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'BookShop-Webhooks/1',
        // Signed now, at this attempt: a retry carries its own time, never the first one's.
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
        : lastAttempt
          ? { status: 'failed' }
          : {}),
    },
  })
  const orderId = delivery.order
    ? typeof delivery.order === 'object'
      ? delivery.order.id
      : delivery.order
    : null
  if (ok) {
    payload.logger.info({ orderId, event: delivery.event, attempts }, 'webhook delivered')
    return { sent: true }
  }
  payload.logger.warn(
    { orderId, event: delivery.event, attempts, status, error },
    lastAttempt ? 'webhook delivery failed for good' : 'webhook delivery failed; will retry',
  )
  throw new Error(`webhook delivery ${delivery.deliveryId} failed: ${error ?? `HTTP ${status}`}`)
}
