import type { HistoryScope } from '@shop/chain'
import { OPEN_ORDER_STATUSES } from '@shop/domain'

import { olderOrderIntervalMs } from './interval'

/**
 * What the worker keeps in memory about a watched order, and the pure rules that read it: is it
 * fresh, what look does it need, when is it looked at next. No I/O, no clock: `now` is passed.
 */
export type Watched = {
  id: string
  address: string
  createdAt: number
  expiresAt: number
  status: string
  /** Money has arrived: confirmations matter, so each new block triggers a full look. */
  funded: boolean
  /**
   * A recorded payment is in doubt (a competing spend is reported): it does not count, so the
   * order looks unfunded, but a look reaches the database to judge it on the chain's evidence.
   */
  inDoubt?: boolean
  nextCheck: number
  /** Looked at in the mempool only since the last block. */
  mempoolOnly: boolean
  /** A new block came (or evidence is asked for): the next look must include confirmed transactions. */
  fullLookDue: boolean
  /**
   * When the full look due was last asked for: a look that began before it cannot answer it
   * (its history was read before the block or the competing spend), so it leaves it due.
   */
  fullLookAskedAt?: number
  /** A full look was asked for at once (a payment in doubt): set when, until one begun later ends. */
  lookNowAskedAt?: number
  /** The address's transactions (txid@height) at the last look that reached the database. */
  recorded?: string
  /**
   * When the last look that judged this order began (a push counts too): a payment the chain
   * shows now was made after it, so it bounds the window of doubt (unknown after a start).
   */
  lookedAt?: number
  /** The owner asked for a look: it is done first, and the request cleared after it. */
  recheck?: boolean
  /** The owner is shown that processing the order failed (cleared at its next success). */
  attention?: boolean
}

export type WatchSettings = {
  workerFastPollMs: number
  workerSlowPollMs: number
  monitoringWindowHours: number
  /** PAYMENT_GRACE_SECONDS in milliseconds. */
  graceMs: number
}

/**
 * A fresh order is looked for every WORKER_FAST_POLL_MS for its first two minutes, when most
 * buyers pay, then one poll interval less often every two minutes after, and never less often
 * than every FRESH_MAX_INTERVAL_MS up to its deadline: the window of doubt (from the last look
 * that did not see a payment to the look that sees it) stays within 10 s for the whole time a
 * payment is on time (doubt.ts measures it), and a hundred buyers at the pay screen at once stay
 * within WhatsOnChain's free 3 requests a second (20 addresses a call).
 */
export const FRESH_STEP_MS = 2 * 60_000
/** The look's own time and a full request slot fit between this and the 10 s window of doubt. */
export const FRESH_MAX_INTERVAL_MS = 8_000

export const freshIntervalMs = (w: Pick<Watched, 'createdAt'>, now: number, fastPollMs: number) =>
  Math.min(
    FRESH_MAX_INTERVAL_MS,
    fastPollMs * (1 + Math.floor(Math.max(0, now - w.createdAt) / FRESH_STEP_MS)),
  )

export const isOpen = (status: string) =>
  (OPEN_ORDER_STATUSES as readonly string[]).includes(status)

/** Expiry plus the grace period: only a look begun after it can expire the order. */
export const deadlineOf = (w: Pick<Watched, 'expiresAt'>, settings: WatchSettings) =>
  w.expiresAt + settings.graceMs

/** Fresh: waiting for payment, before its deadline (a payment now is on time). */
export const isFresh = (w: Watched, now: number, settings: WatchSettings) =>
  isOpen(w.status) && now < deadlineOf(w, settings)

/**
 * Waiting for money past its deadline: the next full look decides (expired, or paid in time), and
 * until it does a payment made meanwhile still counts as on time, so it is not left waiting.
 */
export const awaitsDecision = (w: Watched, now: number, settings: WatchSettings) =>
  isOpen(w.status) && w.status !== 'PAYMENT_DETECTED' && now >= deadlineOf(w, settings)

/**
 * Fresh orders, orders awaiting their decision and the owner's re-checks go before older
 * orders, in the plan and the budget.
 */
export const comesFirst = (w: Watched, now: number, settings: WatchSettings) =>
  isFresh(w, now, settings) || awaitsDecision(w, now, settings) || w.recheck === true

/** A fresh order waiting for its first payment is looked for in the mempool only (one call). */
export const scopeOf = (w: Watched, now: number, settings: WatchSettings): HistoryScope =>
  isFresh(w, now, settings) && !w.fullLookDue && w.status !== 'PAYMENT_DETECTED'
    ? 'unconfirmed'
    : 'all'

/**
 * While WhatsOnChain's push stream is connected it carries every mempool payment and every
 * block, so a look only guards against a message the stream lost: a fresh order is looked at
 * every 5 minutes (a lost payment is still seen while the buyer waits), one with money on the
 * way every 10 (each block asks for its full look at once, tip.ts), and older orders 6 times
 * less often than when polling alone. The moment the stream drops, the polling schedule
 * comes back (decision 019).
 */
export const PUSHED_FRESH_INTERVAL_MS = 5 * 60_000
export const PUSHED_DETECTED_INTERVAL_MS = 10 * 60_000
export const PUSHED_OLDER_FACTOR = 6
/** How often the chain's tip is read while the stream announces each block. */
export const PUSHED_TIP_POLL_MS = 60_000

/**
 * How long until the order is looked at again; `pushed`: the push stream is connected (and
 * carries what a look would find first).
 */
export function intervalFor(
  w: Watched,
  now: number,
  settings: WatchSettings,
  pushed = false,
): number {
  // Past its deadline, still waiting: the next full look decides, as soon as it can go.
  if (awaitsDecision(w, now, settings)) return settings.workerFastPollMs
  // Money on the way, and a block since its last full look (it may have come just before the
  // payment was judged): the block may confirm it, so it is looked at now.
  if (w.funded && w.fullLookDue) return 0
  const deadline = deadlineOf(w, settings)
  let interval: number
  if (w.status === 'PAYMENT_DETECTED')
    interval = pushed ? PUSHED_DETECTED_INTERVAL_MS : settings.workerSlowPollMs
  else if (isFresh(w, now, settings))
    interval = pushed
      ? PUSHED_FRESH_INTERVAL_MS
      : freshIntervalMs(w, now, settings.workerFastPollMs)
  else
    interval =
      olderOrderIntervalMs({ createdAt: w.createdAt, deadline }, now, settings) *
      (pushed ? PUSHED_OLDER_FACTOR : 1)
  // An open order is looked at again the moment its deadline passes; a guard that would fall
  // less than half an interval before it waits for it (the stream carries the payment).
  const untilDeadline = deadline - now
  if (isOpen(w.status) && untilDeadline > 0)
    interval =
      pushed && untilDeadline < 1.5 * interval ? untilDeadline : Math.min(interval, untilDeadline)
  return interval
}

/**
 * When a newly read fresh order, placed after the last block the worker saw, is first looked
 * at: now, unless the push stream was already connected when it was placed (the stream
 * carries its payment; the look is a guard, one interval on).
 */
export function firstLookAt(
  w: Watched,
  now: number,
  settings: WatchSettings,
  pushedSince: number | undefined,
): number {
  if (pushedSince === undefined || w.createdAt <= pushedSince) return now
  return now + intervalFor(w, now, settings, true)
}

/**
 * A new block: whatever left the mempool for it is seen by a full look, so an order with money
 * on the way, one looked at in the mempool only and a fresh one get their next look full. One
 * with money on the way is looked at now, always (the block may confirm its payment). Polling
 * alone, the others are looked at now too, except those still waiting from an earlier block:
 * they keep their place, so blocks coming faster than the budget serves them do not send the
 * same first orders to the front every time. With the stream connected they keep their next
 * look (the stream has already carried their payments).
 */
export function afterBlock(w: Watched, now: number, settings: WatchSettings, pushed = false) {
  if (!(w.funded || w.mempoolOnly || isFresh(w, now, settings))) return
  const waiting = w.fullLookDue
  askFullLook(w, now)
  if (w.funded || (!pushed && !waiting)) w.nextCheck = Math.min(w.nextCheck, now)
}

/**
 * The next look at `w` must be full: asked at `now`; `atOnce`, it is looked at now, and again
 * after any look already under way (that one read the chain before the request).
 */
export function askFullLook(w: Watched, now: number, { atOnce = false } = {}) {
  w.fullLookDue = true
  w.fullLookAskedAt = now
  if (!atOnce) return
  w.lookNowAskedAt = now
  w.nextCheck = Math.min(w.nextCheck, now)
}

/**
 * A look of `scope` begun at `startedAt` is over: it answers the requests for a full look made
 * before it began, not those made while it ran.
 */
export function lookEnded(w: Watched, scope: HistoryScope, startedAt: number) {
  w.mempoolOnly = scope === 'unconfirmed'
  if (scope !== 'all') return
  if ((w.fullLookAskedAt ?? Number.NEGATIVE_INFINITY) <= startedAt) {
    w.fullLookDue = false
    w.fullLookAskedAt = undefined
  }
  if ((w.lookNowAskedAt ?? Number.NEGATIVE_INFINITY) <= startedAt) w.lookNowAskedAt = undefined
}

/** When `w` is looked at next, after a look: now while a look at once is still asked for. */
export const nextCheckAfterLook = (
  w: Watched,
  now: number,
  settings: WatchSettings,
  pushed = false,
) => (w.lookNowAskedAt !== undefined ? now : now + intervalFor(w, now, settings, pushed))

/** The longest an order (or address) whose processing keeps failing waits for its next try. */
export const RETRY_MAX_MS = 15 * 60_000

/**
 * How long an order (or address) whose processing threw `failures` times in a row waits for its
 * next try: `baseMs` after the first failure, twice as long after each further one, at most
 * RETRY_MAX_MS. The others go on meanwhile.
 */
export const retryDelayMs = (failures: number, baseMs: number) =>
  Math.min(RETRY_MAX_MS, Math.max(baseMs, 1) * 2 ** Math.min(Math.max(failures - 1, 0), 30))
