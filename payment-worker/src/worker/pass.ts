import { checkChainAlert, countChainLook, recordChainHealth } from '@shop/cms/engine'

import { takeArcCallbacks } from './arcCallbacks'
import { lookWithinBudget } from './calls'
import { askJobs } from './jobs'
import type { WorkerContext } from './state'
import { LeaseLostError } from './state'
import { checkTip } from './tip'
import { checkStreamTrust } from './trust'
import { pickUpRechecks, refreshWatchList } from './watchList'

/**
 * A pass: the looks at the chain, then a run of the jobs queue asked of the lane (jobs.ts). The
 * run is asked whatever the looks did (a failing chain source, a failing read of the watch
 * list), so mail and webhooks never wait for the chain; the pass still fails afterwards, and the
 * next one waits its backoff. A lost lease ends the pass before the ask: another worker runs
 * the jobs.
 */
export async function pass(ctx: WorkerContext) {
  let looksFailed: { error: unknown } | undefined
  try {
    await looks(ctx)
    if (ctx.watch.size > 0) ctx.run.lastLookOkAt = new Date(ctx.clock())
  } catch (error) {
    if (error instanceof LeaseLostError) throw error
    looksFailed = { error }
  }
  if (ctx.lease?.lost()) throw new LeaseLostError()
  await reportChainHealth(ctx)
  // Only the lease holder gets here. The pass does not wait for the run.
  ctx.run.jobsAsked = askJobs(ctx)
  if (looksFailed) throw looksFailed.error
}

/** What a pass asks the chain and records: new orders, re-checks, ARC's callbacks, the looks. */
async function looks(ctx: WorkerContext) {
  const now = ctx.clock()
  ctx.run.passes += 1
  checkStreamTrust(ctx)
  await refreshWatchList(ctx, now)
  await pickUpRechecks(ctx, now)
  await takeArcCallbacks(ctx)
  if (ctx.watch.size === 0) {
    ctx.run.backlog = false
    return
  }
  await checkTip(ctx, now)
  if (await lookWithinBudget(ctx)) await countChainLook({ payload: ctx.payload })
}

/**
 * The chain source's health for the owner's dashboard, and the alert once no look succeeds
 * (after failed passes too, or no alert could ever fire).
 */
async function reportChainHealth(ctx: WorkerContext) {
  const { payload, chain, settings } = ctx
  const now = new Date(ctx.clock())
  const lastLookOkAt = ctx.run.lastLookOkAt
  await recordChainHealth({ payload, stats: chain.stats?.(), lastLookOkAt, now })
  await checkChainAlert({
    payload,
    env: settings,
    now,
    lastLookOkAt,
    watching: ctx.watch.size > 0,
  })
}
