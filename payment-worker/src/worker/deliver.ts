import type { Order } from '@shop/cms/engine'
import { fileStoreOf, fulfilOrder, slugs } from '@shop/cms/engine'

import { processed, processingFailed } from './attention'
import type { WorkerContext } from './state'

/**
 * Delivery of a paid order (its download token, its e-mail) when the Orders seam did not
 * deliver it with the status change: an order made PAID by hand, or one whose delivery failed.
 */

export async function fulfil(ctx: WorkerContext, order: Order) {
  const { settings } = ctx
  ctx.crashAt?.beforeFulfil?.()
  return fulfilOrder({
    payload: ctx.payload,
    order,
    store: fileStoreOf(settings),
    tokenTtlHours: settings.downloadTokenTtlHours,
    tokenMaxUses: settings.downloadMaxUses,
    logger: ctx.logger,
  })
}

/** Paid but not fulfilled (a crash between the two, or a retried ERROR_FULFILLMENT). */
export async function fulfilPending(ctx: WorkerContext) {
  const pending = await ctx.payload.find({
    collection: slugs.orders,
    where: { and: [{ status: { equals: 'PAID' } }, { fulfilledAt: { exists: false } }] },
    depth: 0,
    limit: 100,
    pagination: false,
  })
  for (const order of pending.docs as Order[]) {
    if ((ctx.failing.get(order.id)?.retryAt ?? 0) > ctx.clock()) continue
    try {
      await fulfil(ctx, order)
      await processed(ctx, order.id, Boolean(order.attentionSince))
    } catch (error) {
      await processingFailed(ctx, order.id, 'deliver', error)
    }
  }
}
