import type { Payload } from 'payload'

import type { EmailKind } from '../collections/EmailOutbox'
import { slugs } from '../collections/slugs'
import { JOB_QUEUES, TASKS } from '../jobs/queues'
import type { EmailOutbox, Order } from '../payload-types'
import type { ChainAlertSettings } from '../operations/chainHealth/chainOutage'
import { ordersById } from '../operations/orders/ordersById'
import { inOneTransaction } from '../operations/worker/workUnit'
import { SMTP_CONNECTIONS } from './adapter'
import type { ShopInfo } from './templates'
import { isStale, orderIdOf, sendMessage } from './sendOutboxEmail'

/**
 * The outbox's first tries, sent together and in the order that matters: what follows a
 * payment (the buyer's paid and shipped e-mails, new download links, the owner's alerts) before
 * the "order created" e-mails, so a rush's buyers get their books while a crowd of new orders
 * waits. A message is rendered once, the messages go a few at a time, and the rows they leave
 * sent are written, and their jobs removed, in one transaction. An "order created" e-mail whose
 * order no longer waits for payment is not sent (status `skipped`).
 *
 * Left to Payload's runner (`sendOutboxEmail`, with its retries and backoff): a message whose
 * job was tried before, and one that fails here. A failure ends the step's sending here (the
 * server is down, most likely): the runner, which runs next, tries the failed messages and
 * records each failure and when to try again, so a broken server is asked a few times a step,
 * not once per waiting message.
 */

/** Kinds sent before the others, in this order of the query. */
const FIRST: readonly EmailKind[] = [
  'order-paid',
  'download-links',
  'order-shipped',
  'owner-paid',
  'owner-settle',
  'owner-chain-down',
]
const LATER: readonly EmailKind[] = ['order-created']

/** Messages on their way at once: one on each of the SMTP transport's pooled connections. */
const SIDE_BY_SIDE = SMTP_CONNECTIONS

/** How long one run keeps taking new messages (the rest wait for the next run). */
const RUN_MS = 5_000

type Job = { id: string | number; input: { outboxId?: string } }

export type SendTogetherOptions = {
  payload: Payload
  shop: ShopInfo
  chain: ChainAlertSettings
  logToConsole: boolean
  limit?: number
  /** Asked before each round, outside its transaction: false ends the run (deliverTogether's). */
  mayGoOn?: () => Promise<boolean>
}

/**
 * How a run ended: every first try taken (`done`), a message failed (`failed`: the runner tries
 * it next), or the run's time spent or the lease in doubt with first tries left (`more`: the
 * next pass comes at once and goes on).
 */
export type SendTogetherResult = { sent: number; ended: 'done' | 'failed' | 'more' }

/** Sends the due first tries, paid mail first. */
export async function sendTogether(options: SendTogetherOptions): Promise<SendTogetherResult> {
  const { payload } = options
  const limit = options.limit ?? 100
  const until = Date.now() + RUN_MS
  let sent = 0
  for (const kinds of [FIRST, LATER]) {
    for (;;) {
      if (options.mayGoOn && !(await options.mayGoOn())) return { sent, ended: 'more' }
      const rows = await firstTries(payload, kinds, limit)
      const outcome = await sendRows(options, rows)
      sent += outcome.sent
      // A failure (the server down, most likely) or the run's time spent: the rest waits for
      // the next run, the "order created" e-mails behind the rest of the paid mail.
      if (outcome.failed) return { sent, ended: 'failed' }
      if (rows.length < limit) break
      if (Date.now() >= until) return { sent, ended: 'more' }
    }
  }
  return { sent, ended: 'done' }
}

/** Pending rows of these kinds whose job waits for its first try, oldest first, with the job. */
async function firstTries(payload: Payload, kinds: readonly EmailKind[], limit: number) {
  const pending = await payload.find({
    collection: slugs.emailOutbox,
    where: { and: [{ status: { equals: 'pending' } }, { kind: { in: [...kinds] } }] },
    sort: 'createdAt',
    depth: 0,
    limit,
    pagination: false,
  })
  const rows = pending.docs as EmailOutbox[]
  if (rows.length === 0) return []
  const jobs = await payload.find({
    collection: 'payload-jobs',
    where: {
      and: [
        { taskSlug: { equals: TASKS.sendEmail } },
        { queue: { equals: JOB_QUEUES.email } },
        { completedAt: { exists: false } },
        { processing: { equals: false } },
        { hasError: { not_equals: true } },
        { totalTried: { equals: 0 } },
        { 'input.outboxId': { in: rows.map((row) => String(row.id)) } },
      ],
    },
    select: { input: true },
    depth: 0,
    limit: 0,
    pagination: false,
    overrideAccess: true,
  })
  const jobOf = new Map((jobs.docs as unknown as Job[]).map((job) => [job.input.outboxId, job]))
  return rows.flatMap((row) => {
    const job = jobOf.get(String(row.id))
    return job ? [{ row, job }] : []
  })
}

type Outcome = { row: EmailOutbox; job: Job; result: 'sent' | 'skipped' | 'failed' }

async function sendRows(
  options: SendTogetherOptions,
  rows: readonly { row: EmailOutbox; job: Job }[],
): Promise<{ sent: number; failed: boolean }> {
  if (rows.length === 0) return { sent: 0, failed: false }
  const { payload } = options
  const orders = await ordersById(
    payload,
    rows.map(({ row }) => orderIdOf(row)).filter((id): id is string => Boolean(id)),
  )
  // SIDE_BY_SIDE senders, each taking the next message as soon as its last one is through (not
  // rounds, where each waited for the slowest of the round); none takes one after a failure.
  const outcomes: Outcome[] = []
  let next = 0
  let failed = false
  const sender = async () => {
    while (next < rows.length && !failed) {
      const outcome = await sendOne(options, rows[next++]!, orders)
      outcomes.push(outcome)
      if (outcome.result === 'failed') failed = true
    }
  }
  await Promise.all(Array.from({ length: Math.min(SIDE_BY_SIDE, rows.length) }, sender))
  const done = outcomes.filter((o) => o.result !== 'failed')
  if (done.length === 0) return { sent: 0, failed }
  const now = new Date().toISOString()
  await inOneTransaction(payload, async (req) => {
    for (const result of ['sent', 'skipped'] as const) {
      const ids = done.filter((o) => o.result === result).map((o) => o.row.id)
      if (ids.length === 0) continue
      await payload.update({
        collection: slugs.emailOutbox,
        where: { id: { in: ids } },
        data: result === 'sent' ? { status: 'sent', sentAt: now, attempts: 1 } : { status: result },
        depth: 0,
        req,
      })
    }
    await payload.delete({
      collection: 'payload-jobs',
      where: { id: { in: done.map((o) => o.job.id) } },
      overrideAccess: true,
      depth: 0,
      req,
    })
  })
  return { sent: done.filter((o) => o.result === 'sent').length, failed }
}

/** One message rendered and sent; a failure is left for the runner's retries. */
async function sendOne(
  { payload, shop, chain, logToConsole }: SendTogetherOptions,
  { row, job }: { row: EmailOutbox; job: Job },
  orders: ReadonlyMap<string, Order>,
): Promise<Outcome> {
  const orderId = orderIdOf(row)
  const order = orderId ? orders.get(orderId) : undefined
  if (isStale(row, order)) {
    payload.logger.info({ orderId, kind: row.kind }, 'e-mail not sent: the order no longer waits')
    return { row, job, result: 'skipped' }
  }
  try {
    await sendMessage({ payload, message: row, shop, chain, logToConsole, order })
    payload.logger.info({ orderId, kind: row.kind, attempts: 1 }, 'e-mail sent')
    return { row, job, result: 'sent' }
  } catch (error) {
    payload.logger.warn(
      { orderId, kind: row.kind, err: String((error as Error)?.message ?? error).slice(0, 500) },
      'e-mail not sent; its job tries again',
    )
    return { row, job, result: 'failed' }
  }
}
