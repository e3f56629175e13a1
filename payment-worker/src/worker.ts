import type { Payload, Where } from 'payload'

import { OPEN_ORDER_STATUSES } from '@shop/domain'

import { slugs } from '../../cms/src/collections/slugs'
import type { Env } from '../../cms/src/config/env'
import { sendPendingEmails } from '../../cms/src/operations/email/sendPendingEmails'
import { fulfilOrder } from '../../cms/src/operations/fulfilment/fulfilOrder'
import type { Order } from '../../cms/src/payload-types'
import type { ChainSource } from './chain/types'
import { MAX_ADDRESSES_PER_CALL } from './chain/types'
import { recordPayments, settleOrder } from './process-order'

/**
 * The payment worker's loop: every tick it picks the orders that are due for a look (fresh
 * orders every WORKER_FAST_POLL_MS, older and expired ones less often, all of them when a new
 * block arrives), asks the chain about their addresses 20 at a time, records payments, settles
 * statuses, fulfils paid orders and sends queued e-mails. A failing chain source is retried
 * with exponential backoff; nothing is lost because every decision is re-derived from the
 * database on the next pass.
 */

export type WorkerSettings = Pick<
  Env,
  | 'confirmationsRequired'
  | 'monitoringWindowHours'
  | 'filesDir'
  | 'downloadTokenTtlHours'
  | 'downloadMaxUses'
  | 'publicUrl'
  | 'workerFastPollMs'
  | 'workerSlowPollMs'
> & { logEmails: boolean; emailRetryBaseMs?: number }

type Log = Pick<Payload['logger'], 'info' | 'warn' | 'error' | 'debug'>

export type PaymentWorker = {
  /** One pass over the due orders (exposed for tests). */
  runOnce: () => Promise<void>
  stop: () => Promise<void>
  /** Resolves after the next complete pass. */
  nextPass: () => Promise<void>
}

const FRESH_ORDER_MS = 15 * 60_000
const MAX_BACKOFF_MS = 30_000

/** Test hook: `WORKER_CRASH_AT=after-record` exits the process right after payments are recorded. */
const crashPoint = process.env.WORKER_CRASH_AT

export function startPaymentWorker({
  payload,
  chain,
  settings,
  logger,
  autoStart = true,
}: {
  payload: Payload
  chain: ChainSource
  settings: WorkerSettings
  logger: Log
  autoStart?: boolean
}): PaymentWorker {
  const nextCheck = new Map<string, number>()
  let lastTip = -1
  let failures = 0
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let passWaiters: (() => void)[] = []

  const intervalFor = (order: Order, now: number) => {
    if (order.status === 'EXPIRED') return settings.workerSlowPollMs
    const age = now - new Date(order.createdAt).getTime()
    return age < FRESH_ORDER_MS ? settings.workerFastPollMs : settings.workerSlowPollMs
  }

  async function loadWatchedOrders(now: Date): Promise<Order[]> {
    const windowStart = new Date(
      now.getTime() - settings.monitoringWindowHours * 3_600_000,
    ).toISOString()
    const where: Where = {
      or: [
        { status: { in: [...OPEN_ORDER_STATUSES] } },
        {
          and: [
            { status: { equals: 'EXPIRED' } },
            { gatewayExpiresAt: { greater_than: windowStart } },
          ],
        },
        { and: [{ status: { equals: 'PAID' } }, { fulfilledAt: { exists: false } }] },
      ],
    }
    const found = await payload.find({
      collection: slugs.orders,
      where,
      limit: 2000,
      depth: 0,
      pagination: false,
      sort: '-createdAt',
    })
    return found.docs as Order[]
  }

  async function fulfil(order: Order) {
    if (crashPoint === 'before-fulfil') {
      logger.warn({ orderId: order.id }, 'test hook: crashing before fulfilment')
      process.exit(86)
    }
    return fulfilOrder({
      payload,
      order,
      filesDir: settings.filesDir,
      tokenTtlHours: settings.downloadTokenTtlHours,
      tokenMaxUses: settings.downloadMaxUses,
      logger,
    })
  }

  async function pass() {
    const now = new Date()
    const orders = await loadWatchedOrders(now)
    const watched = new Set(orders.map((o) => o.id))
    for (const id of nextCheck.keys()) if (!watched.has(id)) nextCheck.delete(id)

    // Paid but not fulfilled (a crash between the two, or a retried ERROR_FULFILLMENT).
    for (const order of orders.filter((o) => o.status === 'PAID' && !o.fulfilledAt))
      await fulfil(order)

    const chainOrders = orders.filter((o) => o.status !== 'PAID')
    if (chainOrders.length > 0) {
      const tip = await chain.getTipHeight()
      const newBlock = tip !== lastTip
      const due = chainOrders.filter((o) => newBlock || (nextCheck.get(o.id) ?? 0) <= now.getTime())
      for (let i = 0; i < due.length; i += MAX_ADDRESSES_PER_CALL) {
        const batch = due.slice(i, i + MAX_ADDRESSES_PER_CALL)
        const histories = await chain.getAddressHistories(batch.map((o) => o.paymentAddress))
        for (const order of batch) {
          const payments = await recordPayments({
            payload,
            order,
            transactions: histories.get(order.paymentAddress) ?? [],
            getTransactionHex: (txid) => chain.getTransactionHex(txid),
            logger,
          })
          if (crashPoint === 'after-record' && payments.length > 0) {
            logger.warn({ orderId: order.id }, 'test hook: crashing after recording payments')
            process.exit(86)
          }
          const settled = await settleOrder({
            payload,
            order,
            payments,
            tipHeight: tip,
            settings: { confirmationsRequired: settings.confirmationsRequired },
            logger,
          })
          if (settled.status === 'PAID' && !settled.fulfilledAt) await fulfil(settled)
          nextCheck.set(order.id, Date.now() + intervalFor(settled, Date.now()))
        }
      }
      lastTip = tip
    }

    await sendPendingEmails({
      payload,
      publicUrl: settings.publicUrl,
      logToConsole: settings.logEmails,
      logger,
      retryBaseMs: settings.emailRetryBaseMs,
    })
  }

  async function runOnce() {
    try {
      await pass()
      if (failures > 0) logger.info({ failures }, 'payment worker recovered')
      failures = 0
    } catch (error) {
      failures += 1
      logger.error({ err: error, failures }, 'payment worker pass failed; retrying with backoff')
    } finally {
      const waiters = passWaiters
      passWaiters = []
      for (const resolve of waiters) resolve()
    }
  }

  const delay = () =>
    failures === 0
      ? settings.workerFastPollMs
      : Math.min(MAX_BACKOFF_MS, settings.workerFastPollMs * 2 ** Math.min(failures, 10))

  const schedule = () => {
    if (stopped) return
    timer = setTimeout(() => {
      running = runOnce().finally(() => {
        running = undefined
        schedule()
      })
    }, delay())
  }

  if (autoStart) {
    running = runOnce().finally(() => {
      running = undefined
      schedule()
    })
  }

  return {
    runOnce: () => (running ? running.then(() => runOnce()) : runOnce()),
    nextPass: () => new Promise<void>((resolve) => passWaiters.push(resolve)),
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
