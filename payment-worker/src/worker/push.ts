import type { PushedTransaction } from '@shop/chain'
import { verifiedHex } from '@shop/chain'
import { asOneWorkUnit } from '@shop/cms/engine'

import { judge } from './judge'
import type { WorkerContext } from './state'
import { refreshWatchList } from './watchList'

/**
 * What the chain's push stream says (chain/src/feed.ts): a transaction paying a watched address
 * is judged at once, beside the loop, without waiting for its order's next look; a payment to
 * an address checkout is about to hand out reads the new orders at once; a new block asks for
 * the tip. Hints only: the looks go on as before.
 */

/**
 * A pushed transaction paying an address the worker does not watch yet is kept this long: the
 * buyer may pay before the worker has read the new order (it reads them every pass).
 */
const UNMATCHED_PUSH_MS = 30_000
/** At most this many unmatched pushes are kept (WoC's stream carries the whole mempool). */
const UNMATCHED_PUSH_MAX = 50_000

export function onPushedTransaction(ctx: WorkerContext, tx: PushedTransaction) {
  const { push } = ctx
  push.lastAt = ctx.clock()
  let matched = false
  for (const address of tx.addresses) {
    const w = ctx.byAddress.get(address)
    if (w) {
      if (!push.queue.some((p) => p.w === w && p.txid === tx.txid))
        push.queue.push({ w, txid: tx.txid, hex: verifiedHex(tx), at: ctx.clock() })
      matched = true
      continue
    }
    if (keepUnmatched(ctx, address, tx)) {
      push.readOrdersNow = true
      matched = true
    }
  }
  if (matched) ctx.askPushWork()
}

/**
 * Keeps a push to an address not watched yet, for an order the worker has not read; true when
 * the address is one checkout is about to hand out.
 */
function keepUnmatched(ctx: WorkerContext, address: string, tx: PushedTransaction): boolean {
  const { unmatched } = ctx.push
  const now = ctx.clock()
  unmatched.delete(address)
  // Its hex is kept only for an upcoming address (and checked once its order turns up): the
  // stream carries the whole mempool, and 50,000 data-carrying transactions are gigabytes.
  const expected = ctx.push.upcoming.has(address)
  unmatched.set(address, { txid: tx.txid, hex: expected ? tx.hex : undefined, at: now })
  for (const [a, seen] of unmatched) {
    if (seen.at >= now - UNMATCHED_PUSH_MS && unmatched.size <= UNMATCHED_PUSH_MAX) break
    unmatched.delete(a)
  }
  return expected
}

export function onPushedBlock(ctx: WorkerContext, height: number) {
  ctx.push.lastAt = ctx.clock()
  if (height === ctx.tip.height) return
  ctx.tip.wanted = true // the next step of the loop asks for the tip
  ctx.wake()
}

/**
 * Beside the loop: new orders read when a push pays an upcoming address, and pushed payments
 * judged, without waiting for the loop's next step (it may be waiting for a chain request or
 * reading thousands of orders). Only while this worker runs passes (holds the lease).
 */
export function askPushWork(ctx: WorkerContext) {
  const { push, run } = ctx
  if (run.stopped || run.standingBy || run.passes === 0) return
  if (push.work) {
    push.again = true
    return
  }
  push.work = asOneWorkUnit(async () => {
    do {
      push.again = false
      if (push.readOrdersNow) {
        push.readOrdersNow = false
        await refreshWatchList(ctx, ctx.clock(), { newOnly: true })
      }
      await judgePushed(ctx)
    } while (push.again && !run.stopped)
  })
    .catch((error: unknown) => {
      // The loop judges what is left at its next step.
      ctx.logger.warn({ err: error }, 'judging a pushed payment failed; the next look retries it')
    })
    .finally(() => {
      push.work = undefined
    })
}

/**
 * Pushed transactions paying watched orders, judged as a mempool look would judge them (their
 * raw hex fetched for exact satoshis), except orders a look is asking about right now: they
 * wait for it.
 */
export async function judgePushed(ctx: WorkerContext) {
  const { push, inLook, watch } = ctx
  if (push.queue.length === 0) return
  const ready = push.queue.filter(({ w }) => !inLook.has(w) && watch.get(w.id) === w)
  push.queue = push.queue.filter(({ w }) => inLook.has(w) && watch.get(w.id) === w)
  for (const { w, txid, hex, at } of ready) {
    const due = w.nextCheck
    await judge(
      ctx,
      { scope: 'unconfirmed', orders: [w] },
      new Map([[w.address, [{ txid, height: null }]]]),
      at,
      hex ? new Map([[txid, hex]]) : undefined,
    )
    // A push is no look: the order's next look (a full one, after a block) stays when it was,
    // unless judging it failed (it then waits for its retry).
    if (!ctx.failing.has(w.id)) w.nextCheck = Math.min(w.nextCheck, due)
  }
}
