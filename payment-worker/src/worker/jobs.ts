import {
  asOneWorkUnit,
  queueMissingFulfilments,
  releaseOrphanedJobs,
  runFulfilmentJobs,
  runMessageJobs,
} from '@shop/cms/engine'

import type { WorkerContext } from './state'

/**
 * The jobs lane: Payload's jobs queue (deliveries of paid orders, e-mails, webhooks, with its
 * retries), run by the lease holder beside its passes, one run at a time. A run is asked at the
 * end of every pass (for what the web processes queued: "order created" mail, webhooks) and by
 * every judgement that makes orders PAID, and follows at once while e-mails are left. The passes
 * never wait for it: a shop with a long history spends seconds of every pass on older orders'
 * looks, and a rush's deliveries and paid e-mails waited for them when the jobs ran between
 * passes; nor do the looks wait for mail. The worker delivers nothing by itself: the Orders seam
 * queues a delivery with every change to PAID, whichever door made it, and the lane runs the
 * queue.
 */

/** Jobs a stopped worker left marked running are put back once this worker holds the lease. */
export async function releaseOrphans(ctx: WorkerContext) {
  if (ctx.run.orphansReleased) return
  // This worker's own run (from before a lapse of its lease) ends first: its jobs are not orphans.
  await ctx.jobs.running
  const released = await asOneWorkUnit(() => releaseOrphanedJobs(ctx.payload))
  if (released > 0) ctx.logger.warn({ released }, 'jobs left running by a stopped worker requeued')
  ctx.run.orphansReleased = true
}

/**
 * Whether the jobs may go on: the lease renewed (outside any transaction) and still held. The
 * deliveries and e-mails of a rush go in back-to-back transactions, which would otherwise keep
 * the lease's own renewal from the database until it ran out.
 */
const stillHolding = (ctx: WorkerContext) => async () =>
  !ctx.lease || ((await ctx.lease.hold()) && !ctx.lease.lost())

/** Whether this worker runs jobs now: it runs passes and holds the lease. */
const mayRunJobs = (ctx: WorkerContext) =>
  !ctx.run.stopped && !ctx.run.standingBy && ctx.run.orphansReleased && !ctx.lease?.lost()

/**
 * Asks the lane for a run of the jobs queue: it starts now, or after the run under way. Resolves
 * once a run that started after the ask has ended (at once when this worker may not run jobs);
 * never rejects: a failed run is logged and the next one tries again.
 */
export function askJobs(ctx: WorkerContext): Promise<void> {
  const { jobs } = ctx
  if (!mayRunJobs(ctx)) return Promise.resolve()
  const asked = new Promise<void>((resolve) => jobs.next.push(resolve))
  if (!jobs.running) {
    jobs.running = asOneWorkUnit(() => runWhileAsked(ctx)).finally(() => {
      jobs.running = undefined
      // Asked as the last run ended (a new run takes them), or while this worker stopped
      // running jobs.
      if (jobs.next.length === 0) return
      if (mayRunJobs(ctx)) void askJobs(ctx)
      else releaseAskers(jobs.next.splice(0))()
    })
  }
  return asked
}

const releaseAskers = (askers: (() => void)[]) => () => {
  for (const resolve of askers) resolve()
}

/** Runs while asked, or while e-mails are left, and this worker may run jobs. */
async function runWhileAsked(ctx: WorkerContext) {
  const { jobs } = ctx
  while ((jobs.next.length > 0 || jobs.mailBacklog) && mayRunJobs(ctx)) {
    const askers = jobs.next.splice(0)
    try {
      await runJobs(ctx)
    } catch (error) {
      ctx.logger.error({ err: error }, 'running the jobs queue failed; the next run tries again')
    } finally {
      releaseAskers(askers)()
    }
  }
}

const fulfilmentJobs = (ctx: WorkerContext) =>
  runFulfilmentJobs(ctx.payload, { settings: ctx.settings, mayGoOn: stillHolding(ctx) })

/**
 * One run: the due deliveries first (the paid e-mails they queue go in the same run), then
 * e-mails (unless turned off on purpose: they wait in the outbox, never marked sent) and
 * webhooks, which go even when the deliveries failed (the run fails after them).
 *
 * An order left PAID without a delivery queued gets one here, through the shop's own operation
 * (`queueMissingFulfilments`), never delivered by the worker itself: a row from before
 * deliveries were jobs, or a delivery that gave up after its last retry and was shown to the
 * owner. The queue is what delivers, so such an order is retried for as long as it stays PAID,
 * as the worker's own delivery retried it before. A crash needs nothing here: an order made
 * PAID by a change that committed has its job on the queue (queued in that transaction), and a
 * job a killed worker was running is put back by `releaseOrphans`.
 */
async function runJobs(ctx: WorkerContext) {
  try {
    await queueMissingFulfilments({ payload: ctx.payload })
    await fulfilmentJobs(ctx)
  } finally {
    ctx.jobs.mailBacklog = false
    const { more } = await runMessageJobs(ctx.payload, {
      email: ctx.settings.emailDelivery !== 'off',
      mayGoOn: stillHolding(ctx),
    })
    ctx.jobs.mailBacklog = more
  }
}
