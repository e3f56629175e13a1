import { isFresh } from '../watch/watched'
import type { WorkerContext } from './state'

/**
 * Reads the chain's tip every `tipPollMs` (at a pass's start and between its calls), or at once
 * when the push stream announced a block: a new block asks for a full look at what may have
 * left the mempool for it.
 */
export async function checkTip(ctx: WorkerContext, now: number) {
  const { tip } = ctx
  if (!tip.wanted && tip.height >= 0 && now - tip.checkedAt < ctx.tipPollMs) return
  // Cleared before asking: a block pushed while the answer is on its way asks again.
  tip.wanted = false
  const height = await ctx.chain.getTipHeight()
  tip.checkedAt = now
  if (height !== tip.height) tip.changedAt = now
  if (tip.height >= 0 && height !== tip.height) {
    for (const w of ctx.watch.values()) {
      // Whatever left the mempool for this block is seen by a full look. Orders still waiting
      // from an earlier block keep their place: blocks coming faster than the budget serves
      // them must not send the same first orders to the front every time.
      if ((w.funded || w.mempoolOnly || isFresh(w, now, ctx.watchSettings)) && !w.fullLookDue) {
        w.fullLookDue = true
        w.nextCheck = Math.min(w.nextCheck, now)
      }
    }
  }
  tip.height = height
}
