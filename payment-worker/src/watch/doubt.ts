import { MAX_ADDRESSES_PER_CALL } from '@shop/chain'

import { lateWatchMs } from './interval'
import type { LifetimeSettings } from './lifetime'
import { DEFAULT_LIFETIME_SETTINGS } from './lifetime'
import { planBatches } from './plan'
import type { StreamSignals } from './stream'
import { streamCarriesPayments } from './stream'
import type { Watched } from './watched'
import { afterBlock, deadlineOf, intervalFor, isOpen } from './watched'

/**
 * The window of doubt, from the worker's own schedule over virtual time: for a payment made at
 * any moment of an order's life, the time from the last look that could not have seen it to the
 * look that sees it. The plan (plan.ts) and the intervals (watched.ts) run as the worker runs
 * them, one chain call at a time within the request budget, with the chain's tip read on its own
 * schedule and a block every ten minutes; `openOrders` unpaid orders are open at once (placed
 * evenly, each open until its deadline), so every order is looked at for its whole life and the
 * widest gap between its looks is the widest window a payment could fall into. A window that
 * straddles the deadline counts the payment as on time (judge.ts), so the window of the look
 * that first begins at or after the deadline is counted too.
 *
 * The stream: 'off' (polling alone), 'deaf' (connected, but carrying no mempool transaction:
 * the worker must poll as if it were down) or 'carrying' (it carries every payment; the looks
 * are guards, and their windows are not the detection time).
 */

export type StreamCase = 'off' | 'deaf' | 'carrying'

export type DoubtSettings = LifetimeSettings & {
  /** WOC_MAX_REQUESTS_PER_SECOND: one chain call may start every 1,000 / this ms. */
  maxRequestsPerSecond: number
  /** How long a chain call takes to answer. */
  callLatencyMs: number
}

export type WindowOfDoubt = {
  openOrders: number
  stream: StreamCase
  /** The widest window of any order measured. */
  maxMs: number
  /** The order's age when the widest window began. */
  widestFromAgeMs: number
  /** The widest window of the median order (its own widest window). */
  medianMs: number
  /** Orders whose whole life was measured. */
  ordersMeasured: number
  /** Chain calls per second over the measured time (tip reads included). */
  callsPerSecond: number
}

/** The window of doubt the schedule keeps, polling alone, inside the request budget. */
export const WINDOW_OF_DOUBT_MS = 10_000

const MINUTE = 60_000
const BLOCK_EVERY_MS = 10 * MINUTE

type SimOrder = Watched & { looks: number[] }

type Sim = {
  settings: DoubtSettings
  signals: StreamSignals
  watch: Map<string, SimOrder>
  done: SimOrder[]
  serial: number
  pass: number
  tipCheckedAt: number
}

function place(sim: Sim, createdAt: number) {
  sim.serial += 1
  const o: SimOrder = {
    id: String(sim.serial),
    address: `a${sim.serial}`,
    createdAt,
    expiresAt: createdAt + sim.settings.expiryMs,
    status: 'AWAITING_PAYMENT',
    funded: false,
    nextCheck: createdAt,
    mempoolOnly: false,
    fullLookDue: false,
    looks: [],
  }
  sim.watch.set(o.id, o)
}

function look(sim: Sim, o: SimOrder, scope: 'all' | 'unconfirmed', t: number, answeredAt: number) {
  const { settings } = sim
  o.looks.push(t)
  o.lookedAt = t
  if (isOpen(o.status) && scope === 'all' && t >= deadlineOf(o, settings)) o.status = 'EXPIRED'
  o.mempoolOnly = scope === 'unconfirmed'
  if (scope === 'all') o.fullLookDue = false
  const trusted = streamCarriesPayments(sim.signals, answeredAt)
  o.nextCheck = answeredAt + intervalFor(o, answeredAt, settings, trusted)
}

/** The widest window of one order: from its placing to the first look at or after its deadline. */
function widestWindow(
  o: SimOrder,
  settings: DoubtSettings,
): { ms: number; fromAge: number } | undefined {
  const deadline = deadlineOf(o, settings)
  let from = o.createdAt
  let widest = { ms: 0, fromAge: 0 }
  for (const at of o.looks) {
    if (at - from > widest.ms) widest = { ms: at - from, fromAge: from - o.createdAt }
    if (at >= deadline) return widest
    from = at
  }
  return undefined
}

/** One step: the next chain call (tip or look) at `t`; returns when the next call may start. */
function step(sim: Sim, t: number, lastBlockAt: number): number {
  const { settings } = sim
  const slot = Math.max(1000 / settings.maxRequestsPerSecond, settings.callLatencyMs)
  const trusted = streamCarriesPayments(sim.signals, t)
  if (t - sim.tipCheckedAt >= settings.tipPollMs) {
    const sawBlock = lastBlockAt > sim.tipCheckedAt
    sim.tipCheckedAt = t
    if (sawBlock) for (const o of sim.watch.values()) afterBlock(o, t, settings, trusted)
    return t + slot
  }
  sim.pass += 1
  const { plan } = planBatches({
    watched: sim.watch.values(),
    now: t,
    pass: sim.pass,
    callsPerPass: 1,
    settings,
  })
  const batch = plan[0]
  if (!batch) return Number.NaN
  for (const o of batch.orders.slice(0, MAX_ADDRESSES_PER_CALL) as SimOrder[])
    look(sim, o, batch.scope, t, t + settings.callLatencyMs)
  return t + slot
}

export function windowOfDoubt({
  openOrders,
  stream,
  settings,
  lifetimes = 3,
}: {
  openOrders: number
  stream: StreamCase
  settings: DoubtSettings
  /** How many order lifetimes are run after the first (which fills the shop). */
  lifetimes?: number
}): WindowOfDoubt {
  const life = settings.expiryMs + settings.graceMs
  const signals: StreamSignals =
    stream === 'off'
      ? { connected: false, mempoolFrames: () => 0 }
      : { connected: true, mempoolFrames: () => (stream === 'deaf' ? 0 : 1_000) }
  const sim: Sim = {
    settings,
    signals,
    watch: new Map(),
    done: [],
    serial: 0,
    pass: 0,
    tipCheckedAt: Number.NEGATIVE_INFINITY,
  }
  const every = life / openOrders
  const countFrom = life
  const countTo = countFrom + lifetimes * life
  // The last orders counted are followed past their deadline.
  const end = countTo + life + 5 * MINUTE
  let nextOrderAt = 0
  let calls = 0
  for (let t = 0; t < end;) {
    for (; nextOrderAt <= t; nextOrderAt += every) place(sim, nextOrderAt)
    const lastBlockAt = Math.floor(t / BLOCK_EVERY_MS) * BLOCK_EVERY_MS
    for (const o of sim.watch.values())
      if (o.expiresAt + lateWatchMs(settings) < t) sim.watch.delete(o.id)
    const next = step(sim, t, lastBlockAt)
    if (Number.isNaN(next)) {
      // Nothing due: the worker waits for the next look, the next order or the next tip read.
      let wake = Math.min(nextOrderAt, sim.tipCheckedAt + settings.tipPollMs)
      for (const o of sim.watch.values()) wake = Math.min(wake, o.nextCheck)
      t = Math.max(wake, t + 1)
      continue
    }
    if (t >= countFrom && t < countTo) calls += 1
    t = next
  }
  const widest: { ms: number; fromAge: number }[] = []
  for (const o of sim.watch.values()) {
    if (o.createdAt < countFrom || o.createdAt >= countTo) continue
    const w = widestWindow(o, settings)
    if (w !== undefined) widest.push(w)
  }
  widest.sort((a, b) => a.ms - b.ms)
  return {
    openOrders,
    stream,
    maxMs: widest.at(-1)?.ms ?? Number.NaN,
    widestFromAgeMs: widest.at(-1)?.fromAge ?? Number.NaN,
    medianMs: widest[Math.floor(widest.length / 2)]?.ms ?? Number.NaN,
    ordersMeasured: widest.length,
    callsPerSecond: +((calls * 1000) / (countTo - countFrom)).toFixed(2),
  }
}

/** The worker's defaults at WhatsOnChain's free 3 requests a second, calls answered in 250 ms. */
export const DEFAULT_DOUBT_SETTINGS: DoubtSettings = {
  ...DEFAULT_LIFETIME_SETTINGS,
  maxRequestsPerSecond: 3,
  callLatencyMs: 250,
}
