import type { Payload, PayloadRequest } from 'payload'

import { slugs } from '../../collections/slugs'
import type { Env } from '../../config/env'
import { JOB_QUEUES, TASKS } from '../../jobs/queues'
import type { Order } from '../../payload-types'
import { faultPoint } from '../../faults'
import { fileStoreOf } from '../../storage'
import { clearOrderAttention, failureReason, markOrderAttention } from '../orders/orderAttention'
import { fulfilOrder } from './fulfilOrder'

/**
 * Delivery of a paid order as a job on Payload's queue (`fulfil-order`, queue `fulfilment`):
 * the Orders seam queues it with the change to PAID, and the payment worker that holds the
 * lease runs it (decision 011). Its input is the order id alone; the order's own fields make it
 * idempotent (`fulfilOrder` does nothing unless the order is PAID without `fulfilledAt`, and
 * reuses a download token a crashed run made), so a repeated or duplicated job delivers once.
 */

export type FulfilmentSettings = Pick<
  Env,
  'filesDir' | 'mediaDir' | 'documentsDir' | 'storage' | 'downloadTokenTtlHours' | 'downloadMaxUses'
>

/** Queues the order's delivery with `req`, so it commits or rolls back with the change to PAID. */
export async function queueFulfilment({
  req,
  orderId,
}: {
  req: PayloadRequest
  orderId: string
}): Promise<void> {
  await req.payload.jobs.queue({
    task: TASKS.fulfilOrder,
    queue: JOB_QUEUES.fulfilment,
    input: { orderId },
    req,
  })
}

/**
 * The body of the `fulfil-order` job: the order as stored now, delivered if it is still PAID
 * and not fulfilled. A failure is thrown for Payload to retry with backoff; the last try also
 * shows the order to the owner as needing attention (never dropped in silence: the order stays
 * PAID and unfulfilled, and the worker queues it again, see `queueMissingFulfilments`). A
 * delivery clears the notice of an earlier failure.
 */
export async function deliverPaidOrder({
  payload,
  orderId,
  settings,
  lastAttempt,
}: {
  payload: Payload
  orderId: string
  settings: FulfilmentSettings
  lastAttempt: boolean
}): Promise<{ status: string | null }> {
  try {
    const order = (await payload.findByID({
      collection: slugs.orders,
      id: orderId,
      depth: 0,
      disableErrors: true,
    })) as Order | null
    if (!order) return { status: null }
    // Delivered by an earlier run of this job (or a duplicate of it), or moved on since.
    if (order.status !== 'PAID' || order.fulfilledAt) return { status: order.status }
    faultPoint('before-fulfil', orderId)
    // No transaction: the book's file is looked for in its store (a bucket, maybe) without
    // holding the database; fulfilledAt is written last, so a run cut short repeats only
    // idempotent steps.
    const delivered = await fulfilOrder({
      payload,
      order,
      store: fileStoreOf(settings),
      tokenTtlHours: settings.downloadTokenTtlHours,
      tokenMaxUses: settings.downloadMaxUses,
      logger: payload.logger,
    })
    if (order.attentionSince) await clearOrderAttention({ payload, orderId })
    return { status: delivered.status }
  } catch (error) {
    // The reason only: a failed statement's error holds its parameters (a token's seal).
    const reason = failureReason(error)
    payload.logger.error(
      { orderId, reason, lastAttempt },
      lastAttempt
        ? 'could not deliver a paid order, for the last time: it is shown to the owner'
        : 'could not deliver a paid order; its job tries again later',
    )
    if (lastAttempt)
      await markOrderAttention({
        payload,
        orderId,
        reason: `Could not deliver this order: ${reason}`,
      })
    throw error
  }
}

/**
 * Paid orders that no fulfilment job will deliver get one: rows made PAID before delivery was a
 * job (the worker delivered them by itself then), and orders whose job gave up after its last
 * retry (their owner already sees them as needing attention). The payment worker calls it in
 * every run of its jobs lane, so such an order is retried for as long as it stays PAID, as it
 * was before delivery was a job; a job still waiting, or left running by a worker that died (put
 * back by `releaseOrphanedJobs`), is enough. Returns how many it queued.
 */
export async function queueMissingFulfilments({
  payload,
  limit = 100,
}: {
  payload: Payload
  limit?: number
}): Promise<number> {
  const paid = await payload.find({
    collection: slugs.orders,
    where: { and: [{ status: { equals: 'PAID' } }, { fulfilledAt: { exists: false } }] },
    // Oldest first, read in order off the (status, fulfilledAt, createdAt) index (fulfilledAt is
    // null for all of them), never by walking every order.
    sort: ['fulfilledAt', 'createdAt'],
    select: { status: true },
    depth: 0,
    limit,
    pagination: false,
  })
  if (paid.docs.length === 0) return 0
  const ids = paid.docs.map((order) => String(order.id))
  const live = await payload.find({
    collection: 'payload-jobs',
    where: {
      and: [
        { taskSlug: { equals: TASKS.fulfilOrder } },
        { completedAt: { exists: false } },
        { hasError: { not_equals: true } },
        { 'input.orderId': { in: ids } },
      ],
    },
    select: { input: true },
    depth: 0,
    limit: 0,
    pagination: false,
  })
  const covered = new Set(live.docs.map((job) => (job.input as { orderId?: string }).orderId))
  let queued = 0
  for (const orderId of ids) {
    if (covered.has(orderId)) continue
    await payload.jobs.queue({
      task: TASKS.fulfilOrder,
      queue: JOB_QUEUES.fulfilment,
      input: { orderId },
    })
    payload.logger.warn({ orderId }, 'a paid order had no delivery queued: queued now')
    queued += 1
  }
  return queued
}

/** How long the owner's "mark as paid" waits for the worker to deliver the order. */
export const DELIVERY_WAIT_MS = 5_000
const DELIVERY_POLL_MS = 100

/**
 * Waits until the order is delivered (or moved on from PAID), at most `timeoutMs`: the worker runs
 * the fulfilment queue at every change to PAID it makes and after every pass (WORKER_FAST_POLL_MS
 * apart), so the owner who marks an order paid is answered with it delivered (a printed book in
 * PROCESSING_DELIVERY, ready to ship). Without a worker the answer comes after `timeoutMs`, still
 * PAID; the delivery waits on the queue. Reads only: nothing is held while it waits.
 */
export async function awaitDelivery({
  payload,
  orderId,
  timeoutMs = DELIVERY_WAIT_MS,
}: {
  payload: Payload
  orderId: string
  timeoutMs?: number
}): Promise<void> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const order = (await payload.findByID({
      collection: slugs.orders,
      id: orderId,
      depth: 0,
      select: { status: true, fulfilledAt: true },
      disableErrors: true,
    })) as Pick<Order, 'status' | 'fulfilledAt'> | null
    if (!order || order.status !== 'PAID' || order.fulfilledAt) return
    if (Date.now() >= until) return
    await new Promise((resolve) => setTimeout(resolve, DELIVERY_POLL_MS))
  }
}
