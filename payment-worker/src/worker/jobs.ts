import {
  asOneWorkUnit,
  queueMissingFulfilments,
  releaseOrphanedJobs,
  runFulfilmentJobs,
  runMessageJobs,
} from '@shop/cms/engine'

import type { WorkerContext } from './state'

/**
 * The jobs runner: Payload's jobs queue (deliveries of paid orders, e-mails, webhooks, with its
 * retries), run by the lease holder at the end of every pass, whatever its looks did. The
 * worker delivers nothing by itself: the Orders seam queues a delivery with every change to
 * PAID, whichever door made it, and the worker runs the queue.
 */

/** Jobs a stopped worker left marked running are put back once this worker holds the lease. */
export async function releaseOrphans(ctx: WorkerContext) {
  if (ctx.run.orphansReleased) return
  const released = await asOneWorkUnit(() => releaseOrphanedJobs(ctx.payload))
  if (released > 0) ctx.logger.warn({ released }, 'jobs left running by a stopped worker requeued')
  ctx.run.orphansReleased = true
}

/**
 * The runs of the delivery queue in this worker, one after the other (by worker context): a
 * pass's judgements (a look's, the older look's beside it, a push's) and its jobs step may each
 * ask for one, and Payload's runner marks the jobs it takes with a read then a write, so two
 * runs at once could both take the same job.
 */
const deliveryRuns = new WeakMap<WorkerContext, Promise<void>>()

function runDeliveries(ctx: WorkerContext, work: () => Promise<unknown>): Promise<void> {
  const mine = (deliveryRuns.get(ctx) ?? Promise.resolve()).then(async () => {
    await work()
  })
  deliveryRuns.set(
    ctx,
    mine.catch(() => {}),
  )
  return mine
}

/**
 * Whether the jobs may go on: the lease renewed (outside any transaction) and still held. The
 * deliveries and e-mails of a rush go in back-to-back transactions, which would otherwise keep
 * the lease's own renewal from the database until it ran out.
 */
const stillHolding = (ctx: WorkerContext) => async () =>
  !ctx.lease || ((await ctx.lease.hold()) && !ctx.lease.lost())

const fulfilmentJobs = (ctx: WorkerContext) =>
  runFulfilmentJobs(ctx.payload, { settings: ctx.settings, mayGoOn: stillHolding(ctx) })

/**
 * A judgement made an order PAID (its delivery queued with the change): the delivery queue runs
 * now rather than at the end of the pass, which may wait for the chain's budget. The pay screen
 * asks for the download link 2.5 s after it sees PAID. A failure is logged; the jobs step runs
 * the queue again.
 */
export async function deliverNow(ctx: WorkerContext) {
  // More looks wait in this pass (a rush): they are judged first, and the pass's jobs step
  // delivers every order they made PAID together.
  if (ctx.lease?.lost() || ctx.run.backlog) return
  try {
    await runDeliveries(ctx, () => fulfilmentJobs(ctx))
  } catch (error) {
    ctx.logger.error(
      { err: error },
      'could not run the deliveries of paid orders; the pass runs them',
    )
  }
}

/**
 * The due jobs: deliveries first (the paid e-mails they queue go in the same step), then
 * e-mails (unless turned off on purpose: they wait in the outbox, never marked sent) and
 * webhooks, which go even when the deliveries failed (the pass fails after them).
 *
 * An order left PAID without a delivery queued gets one here, through the shop's own operation
 * (`queueMissingFulfilments`), never delivered by the worker itself: a row from before
 * deliveries were jobs, or a delivery that gave up after its last retry and was shown to the
 * owner. The queue is what delivers, so such an order is retried for as long as it stays PAID,
 * as the worker's own delivery retried it before. A crash needs nothing here: an order made
 * PAID by a change that committed has its job on the queue (queued in that transaction), and a
 * job a killed worker was running is put back by `releaseOrphans`.
 */
export async function runJobs(ctx: WorkerContext) {
  try {
    await runDeliveries(ctx, async () => {
      await queueMissingFulfilments({ payload: ctx.payload })
      await fulfilmentJobs(ctx)
    })
  } finally {
    ctx.run.mailBacklog = false
    const { more } = await runMessageJobs(ctx.payload, {
      email: ctx.settings.emailDelivery !== 'off',
      mayGoOn: stillHolding(ctx),
    })
    ctx.run.mailBacklog = more
  }
}
