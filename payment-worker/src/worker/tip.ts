import { followAfterBlock } from './follow'
import { afterBlock, PUSHED_TIP_POLL_MS } from '../watch/watched'
import { streamTrusted } from './trust'
import type { WorkerContext } from './state'

/**
 * Reads the chain's tip every `tipPollMs` (every minute while the push stream is connected),
 * at a pass's start and between its calls, or at once when the push stream announced a block:
 * a new block asks for a full look at what may have left the mempool for it (`afterBlock`).
 */
export async function checkTip(ctx: WorkerContext, now: number) {
  const { tip } = ctx
  // With the push stream connected each block is announced: the tip is read less often.
  const trusted = streamTrusted(ctx)
  const every = trusted ? PUSHED_TIP_POLL_MS : ctx.tipPollMs
  if (!tip.wanted && tip.height >= 0 && now - tip.checkedAt < every) return
  // Cleared before asking: a block pushed while the answer is on its way asks again.
  tip.wanted = false
  const height = await ctx.chain.getTipHeight()
  tip.checkedAt = now
  if (height !== tip.height) tip.changedAt = now
  if (tip.height >= 0 && height !== tip.height)
    for (const w of ctx.watch.values()) afterBlock(w, now, ctx.watchSettings, trusted)
  tip.height = height
  // A new block: payments followed on the second source are asked for their merkle path.
  if (tip.changedAt === now) followAfterBlock(ctx)
}
