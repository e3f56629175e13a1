import type { BlockHeader, PushedTransaction } from '@shop/chain'
import { verifiedHex } from '@shop/chain'
import { asOneWorkUnit } from '@shop/cms/engine'

import { followAfterBlock, watchPushedSpends } from './follow'
import { judgeFindings } from './judge'
import { keepPushedHeader } from './proofs'
import type { Watched } from '../watch/watched'
import type { PushedPayment, WorkerContext } from './state'
import { sleep } from './state'
import { checkStreamTrust } from './trust'
import { watchOrdersPaidTo } from './watchList'

/**
 * What the chain's push stream says (chain/src/feed.ts): a transaction paying a watched address
 * is judged at once, beside the loop, without waiting for its order's next look; a payment to
 * an address the worker does not watch is looked up among the orders at once (the buyer may pay
 * an order the worker has not read yet: right after checkout, or while it takes up a rush of
 * thousands); a new block asks for the tip. While the stream is connected the looks are fewer
 * (watched.ts); when it drops, fresh orders and orders with money on the way are looked at now.
 */

/**
 * A pushed transaction paying an address the worker does not watch is kept this long: its
 * order may be committed a moment after the lookup (the lookup finds it at the next reading).
 */
const UNMATCHED_PUSH_MS = 30_000
/** At most this many unmatched pushes are kept (WoC's stream carries the whole mempool). */
const UNMATCHED_PUSH_MAX = 50_000
/**
 * Unmatched addresses are looked up among the orders at most this often, in one query: the
 * stream carries the whole mempool (hundreds of transactions a second on BSV's busiest days).
 */
const LOOKUP_EVERY_MS = 100
/** Addresses per lookup query. */
const LOOKUP_CHUNK = 200
/**
 * A raw transaction longer than this is not kept for the lookup (a wallet's payment is a few
 * hundred bytes; data-carrying transactions of the mempool reach megabytes): its order's
 * judgement fetches it.
 */
const KEEP_HEX_MAX_CHARS = 8_000

export function onPushedTransaction(ctx: WorkerContext, tx: PushedTransaction) {
  // Every mempool frame counts towards the stream's trust, whoever it pays.
  ctx.push.frames.heard(ctx.clock())
  // One that spends what a followed payment spends competes with it.
  watchPushedSpends(ctx, tx.txid, verifiedHex(tx))
  for (const address of tx.addresses) {
    const w = ctx.byAddress.get(address)
    if (w) {
      if (!ctx.push.queue.some((p) => p.w === w && p.txid === tx.txid))
        ctx.push.queue.push({ w, txid: tx.txid, hex: verifiedHex(tx), at: ctx.clock() })
    } else keepUnmatched(ctx, address, tx)
  }
  // Every address is either judged or looked up.
  if (tx.addresses.length > 0) ctx.askPushWork()
}

/** Keeps a push to an address not watched yet until it is looked up among the orders. */
function keepUnmatched(
  ctx: WorkerContext,
  address: string,
  tx: PushedTransaction,
  at = ctx.clock(),
) {
  const { unmatched, toLookUp } = ctx.push
  const now = ctx.clock()
  unmatched.delete(address)
  const hex = tx.hex && tx.hex.length <= KEEP_HEX_MAX_CHARS ? tx.hex : undefined
  unmatched.set(address, { txid: tx.txid, hex, at, keptAt: now })
  toLookUp.add(address)
  for (const [a, seen] of unmatched) {
    if (seen.keptAt >= now - UNMATCHED_PUSH_MS && unmatched.size <= UNMATCHED_PUSH_MAX) break
    unmatched.delete(a)
    toLookUp.delete(a)
  }
}

/** The push stream connected or dropped: its trust is judged again now. */
export function onPushConnected(ctx: WorkerContext, connected: boolean) {
  if (ctx.push.connected === connected) return
  ctx.push.connected = connected
  if (!connected) ctx.push.frames.clear()
  checkStreamTrust(ctx)
}

export function onPushedBlock(ctx: WorkerContext, height: number, header?: BlockHeader) {
  if (header) keepPushedHeader(ctx, header)
  followAfterBlock(ctx)
  if (height === ctx.tip.height) return
  ctx.tip.wanted = true // the next step of the loop asks for the tip
  ctx.wake()
}

/**
 * Beside the loop: unmatched addresses looked up among the orders, and pushed payments judged,
 * without waiting for the loop's next step (it may be waiting for a chain request or reading
 * thousands of orders). Only while this worker runs passes (holds the lease).
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
      await judgePushed(ctx)
      // An order found asks for this work again (`watchNew`): its push is judged next round.
      await lookUpUnmatched(ctx)
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
 * The addresses of unmatched pushes, looked up among the orders (one indexed query for all of
 * them, at most every LOOKUP_EVERY_MS): an order found is watched from now on, and the push
 * judged for it (watchList.ts, `track`).
 */
async function lookUpUnmatched(ctx: WorkerContext) {
  const { push } = ctx
  if (push.toLookUp.size === 0) return
  const wait = Math.min(LOOKUP_EVERY_MS, push.lookedUpAt + LOOKUP_EVERY_MS - ctx.clock())
  if (wait > 0) await sleep(wait)
  push.lookedUpAt = ctx.clock()
  const addresses = [...push.toLookUp]
  push.toLookUp.clear()
  for (let i = 0; i < addresses.length; i += LOOKUP_CHUNK)
    await watchOrdersPaidTo(ctx, addresses.slice(i, i + LOOKUP_CHUNK))
  // Not an order's (yet): only the txid is kept for the rest of its time.
  for (const address of addresses) {
    const kept = push.unmatched.get(address)
    if (kept) kept.hex = undefined
  }
}

/** The pushes a judgement is under way for (it leaves them in the queue until it ends). */
const beingJudged = new WeakSet<PushedPayment>()

/**
 * Pushed transactions paying watched orders, judged as a mempool look would judge them (their
 * raw hex fetched for exact satoshis), except orders a look is asking about right now: they
 * wait for it. Each push leaves the queue only once it is judged: a judgement cut short (a lost
 * lease) leaves it and the rest for whoever judges next. A push for an order the watch list
 * has since read afresh is judged for the order as it is now.
 */
export async function judgePushed(ctx: WorkerContext) {
  const { push, inLook, watch } = ctx
  // The pushes of a rush judged together (their payments and statuses in a few transactions),
  // one push an order at a time.
  const round: { pushed: PushedPayment; w: Watched; due: number }[] = []
  const inRound = new Set<Watched>()
  for (const pushed of [...push.queue]) {
    const w = watch.get(pushed.w.id) ?? pushed.w
    // Judged beside the loop and by the loop's own step: each push by one of them.
    if (inLook.has(w) || beingJudged.has(pushed) || inRound.has(w)) continue
    if (watch.get(w.id) !== w) {
      // No longer watched (forgotten, or this worker stood by): looked up by its address.
      const tx = { txid: pushed.txid, addresses: [w.address], hex: pushed.hex }
      keepUnmatched(ctx, w.address, tx, pushed.at)
      push.queue = push.queue.filter((p) => p !== pushed)
      continue
    }
    beingJudged.add(pushed)
    inRound.add(w)
    round.push({ pushed, w, due: w.nextCheck })
  }
  if (round.length === 0) return
  try {
    await judgeFindings(
      ctx,
      round.map(({ pushed, w }) => ({
        w,
        batch: { scope: 'unconfirmed', orders: [w] },
        transactions: [{ txid: pushed.txid, height: null }],
        // Judged on time or late by the moment the stream carried it, as a look's start.
        startedAt: pushed.at,
        knownHex: pushed.hex ? new Map([[pushed.txid, pushed.hex]]) : undefined,
      })),
    )
  } finally {
    for (const { pushed } of round) beingJudged.delete(pushed)
  }
  const judged = new Set(round.map((r) => r.pushed))
  push.queue = push.queue.filter((p) => !judged.has(p))
  // A push is no look: the order's next look (a full one, after a block) stays when it was,
  // unless judging it failed (it then waits for its retry).
  for (const { w, due } of round)
    if (!ctx.failing.has(w.id)) w.nextCheck = Math.min(w.nextCheck, due)
  // An order's later pushes, left for the next round.
  const ids = new Set([...inRound].map((w) => w.id))
  if (push.queue.some((p) => ids.has(p.w.id) && !beingJudged.has(p))) await judgePushed(ctx)
}

/**
 * The lease is this worker's again (or anew): what it knew is read afresh, and the pushes it
 * had not judged yet are kept, looked up by address once the watch list has their orders.
 */
export function keepPushesForTakeOver(ctx: WorkerContext) {
  const queued = ctx.push.queue
  ctx.push.queue = []
  for (const p of queued)
    keepUnmatched(ctx, p.w.address, { txid: p.txid, addresses: [p.w.address], hex: p.hex }, p.at)
}
