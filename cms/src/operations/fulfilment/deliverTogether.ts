import { isPhysical } from '@shop/domain'
import type { Payload } from 'payload'

import { JOB_QUEUES, TASKS } from '../../jobs/queues'
import type { Order } from '../../payload-types'
import { faultPoint } from '../../faults'
import type { FileStore } from '../../storage'
import { fileStoreOf } from '../../storage'
import { ordersById } from '../orders/ordersById'
import { inOneTransaction } from '../worker/workUnit'
import type { FulfilmentSettings } from './fulfilmentJob'
import { digitalFileOf, fulfilOrder } from './fulfilOrder'

/**
 * The deliveries of a rush, together: the `fulfil-order` jobs waiting for their first try are
 * read at once, their orders delivered and the jobs removed in one transaction per group (the
 * download tokens, the orders' new state and the paid e-mails they queue commit together), so a
 * rush of paid orders costs a few commits, not five per order through Payload's runner. The
 * book files are looked for before the transaction (once per product), never while it holds
 * the database.
 *
 * What this leaves to Payload's runner (`runFulfilmentJobs`, with its retries and backoff): a
 * job that failed before, an order the owner was told about, and every job of a group whose
 * transaction failed (rolled back whole: nothing of it is delivered twice).
 */

/** Deliveries in one transaction. */
const GROUP = 50

/** How long one run keeps taking new deliveries (the rest wait for the next run). */
const RUN_MS = 5_000

type DueJob = { id: string | number; input: { orderId?: string } }

/** Delivers the due first tries together; returns how many orders it delivered. */
export async function deliverTogether({
  payload,
  settings,
  limit = 200,
  mayGoOn,
}: {
  payload: Payload
  settings: FulfilmentSettings
  limit?: number
  /**
   * Asked before each group, outside its transaction: false ends the run (the payment worker's
   * lease, renewed there, so back-to-back groups never starve its renewal).
   */
  mayGoOn?: () => Promise<boolean>
}): Promise<number> {
  const until = Date.now() + RUN_MS
  let delivered = 0
  for (;;) {
    const round = await deliverRound(payload, settings, limit, mayGoOn)
    delivered += round.delivered
    if (round.taken < limit || Date.now() >= until) return delivered
  }
}

/** One read of due first tries, delivered: how many jobs it took and orders it delivered. */
async function deliverRound(
  payload: Payload,
  settings: FulfilmentSettings,
  limit: number,
  mayGoOn: (() => Promise<boolean>) | undefined,
) {
  const jobs = await dueFirstTries(payload, limit)
  if (jobs.length === 0) return { taken: 0, delivered: 0 }
  const orders = await ordersById(
    payload,
    jobs.map((job) => job.input.orderId).filter((id): id is string => Boolean(id)),
  )
  const store = fileStoreOf(settings)
  const files = await filesOf(payload, store, orders)
  let delivered = 0
  for (let i = 0; i < jobs.length; i += GROUP) {
    if (mayGoOn && !(await mayGoOn())) return { taken: 0, delivered }
    const group = jobs.slice(i, i + GROUP)
    try {
      const done = await inOneTransaction(payload, async (req) => {
        const updated = new Map<string, Order>()
        const handled: DueJob['id'][] = []
        for (const job of group) {
          const orderId = job.input.orderId ?? ''
          const order = updated.get(orderId) ?? orders.get(orderId)
          // An order the owner was told about is its job's to deliver (and to clear the notice).
          if (order?.attentionSince) continue
          handled.push(job.id)
          // Gone, moved on or delivered: its job has nothing left to do.
          if (!order || order.status !== 'PAID' || order.fulfilledAt) continue
          faultPoint('before-fulfil', orderId)
          const delivered = await fulfilOrder({
            payload,
            order,
            store,
            tokenTtlHours: settings.downloadTokenTtlHours,
            tokenMaxUses: settings.downloadMaxUses,
            logger: payload.logger,
            req,
            file: files.get(productIdOf(order)),
          })
          updated.set(orderId, delivered)
        }
        if (handled.length > 0)
          await payload.delete({
            collection: 'payload-jobs',
            where: { id: { in: handled } },
            overrideAccess: true,
            depth: 0,
            req,
          })
        return updated
      })
      // Committed: a later group's job for one of these orders finds it delivered.
      for (const [orderId, order] of done) orders.set(orderId, order)
      delivered += done.size
    } catch (error) {
      payload.logger.warn(
        { err: error, orders: group.length },
        'could not deliver a group of paid orders together; their jobs deliver them one by one',
      )
      // Its jobs stay waiting for their first try: this run takes no more (the runner tries them).
      return { taken: 0, delivered }
    }
  }
  return { taken: jobs.length, delivered }
}

/** Deliveries waiting for their first try, oldest first; none an order already told about. */
async function dueFirstTries(payload: Payload, limit: number): Promise<DueJob[]> {
  const found = await payload.find({
    collection: 'payload-jobs',
    where: {
      and: [
        { queue: { equals: JOB_QUEUES.fulfilment } },
        { taskSlug: { equals: TASKS.fulfilOrder } },
        { completedAt: { exists: false } },
        { processing: { equals: false } },
        { hasError: { not_equals: true } },
        { totalTried: { equals: 0 } },
      ],
    },
    select: { input: true },
    sort: 'createdAt',
    depth: 0,
    limit,
    overrideAccess: true,
  })
  return found.docs as unknown as DueJob[]
}

/** Each digital product's stored file (null when missing), looked up once for the round. */
async function filesOf(
  payload: Payload,
  store: FileStore,
  orders: ReadonlyMap<string, Order>,
): Promise<Map<string, Awaited<ReturnType<typeof digitalFileOf>>>> {
  const files = new Map<string, Awaited<ReturnType<typeof digitalFileOf>>>()
  for (const order of orders.values()) {
    if (order.status !== 'PAID' || order.fulfilledAt || isPhysical(order.productType)) continue
    const productId = productIdOf(order)
    if (!files.has(productId))
      files.set(productId, await digitalFileOf({ payload, productId, store }))
  }
  return files
}

const productIdOf = (order: Order) =>
  String(typeof order.product === 'object' ? order.product.id : order.product)
