import { streamCarriesPayments } from '../watch/stream'
import { isFresh } from '../watch/watched'
import type { WorkerContext } from './state'

/**
 * Whether the stream carries payments now (watch/stream.ts): connected, and carrying mempool
 * transactions lately. A connected but deaf stream counts as down.
 */
export function streamTrusted(ctx: WorkerContext): boolean {
  const { push } = ctx
  return streamCarriesPayments(
    { connected: push.connected, mempoolFrames: push.frames.since },
    ctx.clock(),
  )
}

/**
 * Checks the stream's trust at each step of the loop (a stream that falls silent sends no event
 * of its own). Lost (dropped or deaf): what it would have carried is looked for now (fresh
 * orders and orders with money on the way), and the polling schedule comes back.
 */
export function checkStreamTrust(ctx: WorkerContext) {
  const { push } = ctx
  const trusted = streamTrusted(ctx)
  if (trusted === push.trusted) return
  push.trusted = trusted
  const now = ctx.clock()
  if (trusted) {
    push.trustedSince = now
    return
  }
  push.trustedSince = Number.POSITIVE_INFINITY
  for (const w of ctx.watch.values())
    if (w.funded || isFresh(w, now, ctx.watchSettings)) w.nextCheck = Math.min(w.nextCheck, now)
  ctx.tip.wanted = true
  ctx.logger.info(
    { connected: push.connected },
    'chain push stream not carrying mempool transactions; polling as if it were down',
  )
  ctx.wake()
}
