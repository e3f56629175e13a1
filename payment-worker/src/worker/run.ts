import { asOneWorkUnit } from '@shop/cms/engine'

import { releaseOrphans } from './jobs'
import { pass } from './pass'
import { keepPushesForTakeOver } from './push'
import type { WorkerContext } from './state'

/**
 * The worker's schedule: a pass every WORKER_FAST_POLL_MS (at once while more is due than one
 * pass may ask), only while it holds the lease (renewed on its own timer, lease.ts), with
 * exponential backoff after a failed pass, up to MAX_BACKOFF_MS.
 * A failing chain source is retried this way; nothing is lost because every decision is
 * re-derived from the database on the next look.
 */

/**
 * The longest wait after failed passes: a chain source back from an outage is asked again
 * within it, so a payment made then is still seen within seconds (each failed pass costs a
 * request or two, well inside the budget).
 */
const MAX_BACKOFF_MS = 4_000

export async function runOnce(ctx: WorkerContext) {
  const { run, lease, logger } = ctx
  run.jobsAsked = undefined
  try {
    if (lease && !(await lease.hold())) {
      run.standingBy = true
      ctx.onHeartbeat?.('standby')
      return
    }
    // Taken over from a standby, or held again in a new epoch after it lapsed: what this worker
    // knew may be stale.
    if (run.standingBy || (lease && lease.epoch() !== run.epoch)) takeOver(ctx)
    run.epoch = lease?.epoch()
    await releaseOrphans(ctx)
    await asOneWorkUnit(() => pass(ctx))
    ctx.onHeartbeat?.('active')
    if (run.failures > 0) logger.info({ failures: run.failures }, 'payment worker recovered')
    run.failures = 0
  } catch (error) {
    run.failures += 1
    logger.error(
      { err: error, failures: run.failures },
      'payment worker pass failed; retrying with backoff',
    )
  } finally {
    // A pass is complete, for those who wait for one, once the jobs run it asked for has ended.
    const waiters = run.passWaiters
    run.passWaiters = []
    void (run.jobsAsked ?? Promise.resolve()).then(() => {
      for (const resolve of waiters) resolve()
    })
  }
}

/** The lease is this worker's again: what it knew while standing by is read afresh. */
function takeOver(ctx: WorkerContext) {
  ctx.run.standingBy = false
  ctx.run.orphansReleased = false
  ctx.watch.clear()
  ctx.byAddress.clear()
  keepPushesForTakeOver(ctx)
  ctx.list.lastFullReload = 0
  ctx.tip.height = -1
  ctx.tip.changedAt = Number.POSITIVE_INFINITY
}

/** How long until the next pass. */
function delay(ctx: WorkerContext): number {
  const { run, lease, settings } = ctx
  if (run.standingBy && lease) return lease.renewEveryMs
  if (run.failures > 0)
    return Math.min(MAX_BACKOFF_MS, settings.workerFastPollMs * 2 ** Math.min(run.failures, 10))
  // More is due than one pass may ask: go on at once (the client still spaces the calls).
  return run.backlog || ctx.push.queue.length > 0 ? 0 : settings.workerFastPollMs
}

function schedule(ctx: WorkerContext) {
  if (ctx.run.stopped) return
  ctx.run.timer = setTimeout(() => passNow(ctx), delay(ctx))
}

/** A pass now, and the next one scheduled when it ends. */
export function passNow(ctx: WorkerContext) {
  ctx.run.running = runOnce(ctx).finally(() => {
    ctx.run.running = undefined
    schedule(ctx)
  })
}

/** Now, not after the pass's sleep or the wait between passes (for a block). */
export function wake(ctx: WorkerContext) {
  const { run } = ctx
  if (run.wakePass) {
    run.wakePass()
    return
  }
  if (!run.running && !run.stopped && run.timer) {
    clearTimeout(run.timer)
    run.timer = undefined
    passNow(ctx)
  }
}
