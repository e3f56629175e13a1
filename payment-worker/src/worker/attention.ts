import { clearOrderAttention, failureReason, markOrderAttention } from '@shop/cms/engine'

import { retryDelayMs } from '../watch/watched'
import type { WorkerContext } from './state'

/**
 * An order the worker could not process: logged, shown to the owner as needing attention (its
 * `attention` notice), tried again on its own with a growing delay while the others go on, and
 * the notice cleared by its next success.
 */

/** Shows the owner that the order needs attention; false when even that failed (logged). */
export async function showOwner(
  ctx: WorkerContext,
  orderId: string,
  reason: string,
): Promise<boolean> {
  try {
    await markOrderAttention({ payload: ctx.payload, orderId, reason, at: new Date(ctx.clock()) })
    const w = ctx.watch.get(orderId)
    if (w) w.attention = true
    return true
  } catch (error) {
    ctx.logger.error({ orderId, err: error }, 'could not show the owner an order needing attention')
    return false
  }
}

/**
 * One order's judgement threw: logged with the reason, shown to the owner as needing attention,
 * and tried again on its own after a delay that grows with each failure in a row. Never throws:
 * the pass goes on with the other orders. Returns when it is tried again. (A delivery that fails
 * is its job's: retried by the queue, shown to the owner after its last try.)
 */
export async function processingFailed(
  ctx: WorkerContext,
  orderId: string,
  what: 'settle',
  error: unknown,
): Promise<number> {
  const failures = (ctx.failing.get(orderId)?.failures ?? 0) + 1
  const retryAt = ctx.clock() + retryDelayMs(failures, ctx.settings.workerSlowPollMs)
  ctx.failing.set(orderId, { failures, retryAt })
  ctx.logger.error(
    { orderId, err: error, failures, retryAt: new Date(retryAt).toISOString() },
    `could not ${what} an order; it is tried again on its own`,
  )
  await showOwner(ctx, orderId, `Could not ${what} this order: ${failureReason(error)}`)
  return retryAt
}

/** The order was processed: its failures are forgotten and the owner's notice goes. */
export async function processed(ctx: WorkerContext, orderId: string, attention: boolean) {
  ctx.failing.delete(orderId)
  if (!attention) return
  await clearOrderAttention({ payload: ctx.payload, orderId })
  const w = ctx.watch.get(orderId)
  if (w) w.attention = false
  ctx.logger.info({ orderId }, 'order processed again; its notice to the owner is cleared')
}
