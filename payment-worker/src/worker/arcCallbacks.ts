import { slugs } from '@shop/cms/engine'

import { askOnCallback } from './follow'
import type { WorkerContext } from './state'

/**
 * ARC's callbacks, as the web process kept them (cms: collections/ArcCallbacks): each pass takes
 * the ones not yet taken, oldest first, marks them taken, and brings the next ask of each
 * payment they name forward to now (follow.ts, askOnCallback). Taken callbacks are kept a day
 * for the owner's chain-health card, then pruned. A callback the worker cannot act on (a payment
 * no longer followed, a status the last answer gave) is taken all the same.
 */

/** Callbacks taken in one pass, at most. */
const TAKE_PER_PASS = 50
/** Taken callbacks are kept this long. */
export const CALLBACKS_KEPT_MS = 24 * 3_600_000
const PRUNE_EVERY_MS = 10 * 60_000

type Kept = { id: number | string; txid: string; txStatus: string }

export async function takeArcCallbacks(ctx: WorkerContext) {
  if (!ctx.txSource) return
  try {
    await take(ctx)
  } catch (error) {
    // The schedule goes on without them: the callbacks are read again next pass.
    ctx.logger.warn(
      { err: error },
      "ARC's callbacks could not be read; the follow schedule goes on",
    )
  }
}

async function take(ctx: WorkerContext) {
  const now = ctx.clock()
  const found = await ctx.payload.find({
    collection: slugs.arcCallbacks,
    where: { takenAt: { exists: false } },
    sort: 'createdAt',
    select: { txid: true, txStatus: true },
    depth: 0,
    limit: TAKE_PER_PASS,
    pagination: false,
  })
  const kept = found.docs as Kept[]
  if (kept.length > 0) {
    await ctx.payload.update({
      collection: slugs.arcCallbacks,
      where: { id: { in: kept.map((k) => k.id) } },
      data: { takenAt: new Date(now).toISOString() },
      depth: 0,
    })
    for (const callback of kept) {
      const asked = askOnCallback(ctx, callback.txid, callback.txStatus)
      ctx.logger.info(
        { txid: callback.txid, txStatus: callback.txStatus, asked },
        asked ? 'ARC called back: asking it about the payment now' : 'ARC called back',
      )
    }
  }
  if (now - ctx.follow.callbacksPrunedAt >= PRUNE_EVERY_MS) {
    ctx.follow.callbacksPrunedAt = now
    await ctx.payload.delete({
      collection: slugs.arcCallbacks,
      where: {
        and: [
          { takenAt: { exists: true } },
          { createdAt: { less_than: new Date(now - CALLBACKS_KEPT_MS).toISOString() } },
        ],
      },
      depth: 0,
    })
  }
}
