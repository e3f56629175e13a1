import type { Batch } from '../watch/plan'
import { batchCost, OLD_SHARE_EVERY_PASSES, planBatches } from '../watch/plan'
import type { Watched } from '../watch/watched'
import { comesFirst } from '../watch/watched'
import { look } from './look'
import { judgePushed } from './push'
import type { WorkerContext } from './state'
import { sleep } from './state'
import { checkTip } from './tip'
import { checkStreamTrust } from './trust'
import { refreshWatchList } from './watchList'

/**
 * A pass's calls to the chain, one at a time, planned afresh before each (watch/plan.ts): an
 * order created meanwhile, or a fresh one due again, goes before the rest of the pass's older
 * orders, so a payment made right after checkout is looked for at the next call, not after the
 * pass. A look at older orders goes on beside the loop, one at a time: while buyers wait it
 * waits for a request the budget leaves them, and a buyer's payment looked for meanwhile does
 * not wait behind it.
 */

/**
 * While a look at older orders is under way, new orders are looked for this often, and the loop
 * wakes when a fresh order is due. A 50 ms tick that read new orders and planned every time kept
 * the worker at two thirds of a core through a rush, beside the web process it shares the
 * machine with.
 */
const NEW_ORDERS_EVERY_MS = 250

/** The pass's calls so far. */
type Calls = {
  call: number
  /** Chain calls left in the pass's budget. */
  budget: number
  looked: boolean
  /** When new orders were last read. */
  refreshedAt: number
  /** The look at older orders under way beside the loop. */
  older?: { done: Promise<void>; orders: ReadonlySet<Watched> }
  olderFailed?: { error: unknown }
}

/** The pass's looks within its budget of chain calls; true when any call was made. */
export async function lookWithinBudget(ctx: WorkerContext): Promise<boolean> {
  const calls: Calls = {
    call: 0,
    budget: ctx.callsPerPass,
    looked: false,
    refreshedAt: ctx.clock(),
  }
  try {
    for (; !calls.olderFailed; calls.call += 1) if (!(await nextCall(ctx, calls))) break
  } finally {
    await calls.older?.done
  }
  await judgePushed(ctx)
  if (calls.olderFailed) throw calls.olderFailed.error
  return calls.looked
}

/** One step of the pass: a call made or started, or a wait for the older look; false when done. */
async function nextCall(ctx: WorkerContext, calls: Calls): Promise<boolean> {
  if (calls.call > 0) {
    checkStreamTrust(ctx)
    // A pass waiting for an older look may outlast a block.
    await checkTip(ctx, ctx.clock())
    if (!calls.older || ctx.clock() - calls.refreshedAt >= NEW_ORDERS_EVERY_MS)
      await readNewOrders(ctx, calls)
  }
  await judgePushed(ctx)
  const batch = await nextBatch(ctx, calls)
  if (batch?.orders.some((w) => comesFirst(w, ctx.clock(), ctx.watchSettings))) {
    await look(ctx, batch)
    spent(calls, batch)
    return true
  }
  if (batch && !calls.older && batchCost(batch) <= calls.budget) {
    lookBeside(ctx, calls, batch)
    spent(calls, batch)
    return true
  }
  if (!calls.older) return false
  await waitForOlderLook(ctx, calls)
  return true
}

async function readNewOrders(ctx: WorkerContext, calls: Calls) {
  await refreshWatchList(ctx, ctx.clock())
  calls.refreshedAt = ctx.clock()
}

function spent(calls: Calls, batch: Batch) {
  calls.looked = true
  calls.budget -= batchCost(batch)
}

/** The batch the next call asks about, planned now. */
async function nextBatch(ctx: WorkerContext, calls: Calls): Promise<Batch | undefined> {
  let { plan, backlog } = planNow(ctx, calls)
  if (plan[0]?.orders.some((w) => comesFirst(w, ctx.clock(), ctx.watchSettings))) {
    // Fresh orders are asked about once the request can go, with new orders read just before:
    // planned first, a call waited up to a second for its request without the order placed
    // meanwhile, which then waited for the next.
    if (await ctx.chain.waitForRoom?.()) {
      await readNewOrders(ctx, calls)
      ;({ plan, backlog } = planNow(ctx, calls))
    }
  }
  ctx.run.backlog = backlog || plan.length > 1
  return plan[0]
}

function planNow(ctx: WorkerContext, calls: Calls) {
  const inFlight = calls.older?.orders
  return planBatches({
    watched: inFlight
      ? [...ctx.watch.values()].filter((w) => !inFlight.has(w))
      : ctx.watch.values(),
    now: ctx.clock(),
    pass: ctx.run.passes,
    // Past the budget, orders that come first are still looked at while an older look is under
    // way (they would otherwise wait for it).
    callsPerPass: calls.older ? Math.max(calls.budget, 2) : calls.budget,
    settings: ctx.watchSettings,
    olderShare: calls.call === 0 && ctx.run.passes % OLD_SHARE_EVERY_PASSES === 0,
  })
}

/** A look at older orders, beside the loop. */
function lookBeside(ctx: WorkerContext, calls: Calls, batch: Batch) {
  const done = look(ctx, batch).then(
    () => {
      calls.older = undefined
    },
    (error: unknown) => {
      calls.older = undefined
      calls.olderFailed = { error }
    },
  )
  calls.older = { done, orders: new Set(batch.orders) }
}

/**
 * Until the older look ends, it is time to look for new and due orders again, or the push
 * stream says something.
 */
async function waitForOlderLook(ctx: WorkerContext, calls: Calls) {
  const older = calls.older!
  const woken = new Promise<void>((resolve) => {
    ctx.run.wakePass = resolve
  })
  await Promise.race([
    older.done,
    woken,
    sleep(untilNextLook(ctx, ctx.clock(), calls.refreshedAt, older.orders)),
  ])
  ctx.run.wakePass = undefined
}

/** How long a pass waiting for its older look may sleep: until new orders or a fresh one is due. */
function untilNextLook(
  ctx: WorkerContext,
  now: number,
  refreshedAt: number,
  inFlight: ReadonlySet<Watched>,
) {
  let wait = refreshedAt + NEW_ORDERS_EVERY_MS - now
  for (const w of ctx.watch.values())
    if (w.nextCheck < now + wait && !inFlight.has(w) && comesFirst(w, now, ctx.watchSettings))
      wait = w.nextCheck - now
  return Math.max(10, wait)
}
