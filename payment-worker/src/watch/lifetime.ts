import { followCalls } from './followSchedule'
import { lateWatchMs } from './interval'
import { planBatches } from './plan'
import type { Watched, WatchSettings } from './watched'
import { afterBlock, deadlineOf, firstLookAt, intervalFor, PUSHED_TIP_POLL_MS } from './watched'

/**
 * The chain calls an order costs over its whole watch, from the worker's own schedule: the
 * plan (plan.ts) and the intervals (watched.ts, interval.ts) run over virtual time for a shop
 * with a steady stream of orders, as the worker runs them, with the chain played by a few
 * rules (below). The benchmark prints it; a unit test keeps it under its target.
 *
 * The shop: `ordersPerDay` orders, one every 86,400 / ordersPerDay seconds; every other one is
 * paid two minutes after checkout (exactly, on time); a block every ten minutes. Its watch list
 * starts as it stands after a month of such days, and the calls of the `days` that follow are
 * counted (an hour first, so the start's spread settles).
 * The chain, as the worker meets it:
 * - a payment is in the mempool from its moment, in a block from the next block on;
 * - with the push stream connected, the stream carries the payment the moment it is made (its
 *   raw transaction with it: no call) and each block's header;
 * - a mempool look ('unconfirmed') sees a payment still in the mempool, a full look ('all')
 *   any payment; a full look after the payment's block confirms it; one call either way;
 * - the chain's tip is read every `tipPollMs` polling alone, every minute and once per block
 *   while blocks are pushed: counted apart, since it costs the same however many orders there
 *   are;
 * - a payment's confirmation is proven at the full look that finds it in a block: with the
 *   second source (ARC) on, its path comes from ARC, asked then as one of its follower's asks;
 *   without it, WhatsOnChain's merkle proof is one more call; the block's header is one call per
 *   block (cached, counted apart);
 * - ARC follows a payment from its detection until it is proven, on its schedule
 *   (followSchedule.ts): counted per paid order, since unpaid orders cost it nothing.
 */

export type LifetimeSettings = WatchSettings & {
  lateWatchDays: number
  /** ORDER_EXPIRY_MINUTES in milliseconds. */
  expiryMs: number
  /** The calls one pass may make (the worker's `callsPerPass`). */
  callsPerPass: number
  /** How often the worker reads the chain's tip polling alone (its `tipPollMs`). */
  tipPollMs: number
}

/** The worker's defaults (cms/src/config/env.ts) at WhatsOnChain's free 3 requests a second. */
export const DEFAULT_LIFETIME_SETTINGS: LifetimeSettings = {
  workerFastPollMs: 500,
  workerSlowPollMs: 10_000,
  monitoringWindowHours: 24,
  lateWatchDays: 30,
  graceMs: 60_000,
  expiryMs: 20 * 60_000,
  callsPerPass: 3,
  tipPollMs: 5_000,
}

export type Lifetime = {
  ordersPerDay: number
  pushConnected: boolean
  arc: boolean
  /** WhatsOnChain's calls for looks and proofs over the counted days, per order placed in them. */
  callsPerOrder: number
  /** Looks (an order in a call) per order placed. */
  looksPerOrder: number
  /** Calls for the chain's tip a day, whatever the number of orders. */
  tipCallsPerDay: number
  /** Calls for block headers a day (one per block, for the proofs), whatever the orders. */
  headerCallsPerDay: number
  /** The second source's calls per paid order over its life: the mean and the most. */
  arcCallsPerPaidOrder: { mean: number; max: number }
  /** Orders watched at once, at most. */
  watched: number
}

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const BLOCK_EVERY_MS = 10 * MINUTE
const PAY_AFTER_MS = 2 * MINUTE
/** A paid order placed before the counted time is PAID once its block is this old. */
const SETTLED_AFTER_MS = 60 * MINUTE

type SimOrder = Watched & { paysAt?: number; detectedAt?: number }

/** The first block at or after `t`. */
const blockAfter = (t: number) => Math.ceil(t / BLOCK_EVERY_MS) * BLOCK_EVERY_MS

type Sim = {
  settings: LifetimeSettings
  pushed: boolean
  arc: boolean
  /** Calls a proof made (WhatsOnChain's merkle proof), and the second source's per paid order. */
  proofCalls: number
  arcCalls: number[]
  counting: boolean
  watch: Map<string, SimOrder>
  serial: number
  random: number
}

/** A deterministic stream of numbers in [0, 1) (Lehmer): the same run every time. */
function nextRandom(sim: Sim) {
  sim.random = (sim.random * 48_271) % 2_147_483_647
  return sim.random / 2_147_483_647
}

/** An order placed at `createdAt`, as the worker knows it at `now`. */
function place(sim: Sim, createdAt: number, now: number) {
  const { settings, pushed } = sim
  sim.serial += 1
  const o: SimOrder = {
    id: String(sim.serial),
    address: `a${sim.serial}`,
    createdAt,
    expiresAt: createdAt + settings.expiryMs,
    status: 'AWAITING_PAYMENT',
    funded: false,
    nextCheck: now,
    mempoolOnly: false,
    fullLookDue: false,
    paysAt: sim.serial % 2 === 0 ? createdAt + PAY_AFTER_MS : undefined,
  }
  o.nextCheck = firstLookAt(o, now, settings, pushed ? Number.NEGATIVE_INFINITY : undefined)
  if (createdAt < now) {
    // Placed before the counted time: as the worker left it, looked at again within its interval.
    if (o.paysAt !== undefined && blockAfter(o.paysAt) + SETTLED_AFTER_MS <= now) o.status = 'PAID'
    else if (o.paysAt !== undefined && o.paysAt <= now) {
      o.status = 'PAYMENT_DETECTED'
      o.funded = true
    } else if (deadlineOf(o, settings) <= now) o.status = 'EXPIRED'
    o.nextCheck = now + nextRandom(sim) * intervalFor(o, now, settings, pushed)
  }
  sim.watch.set(o.id, o)
}

/** What a look at `o` in a call of `scope` at `t` finds, judged as the worker judges it. */
function look(sim: Sim, o: SimOrder, scope: 'all' | 'unconfirmed', t: number) {
  const paid = o.paysAt !== undefined && o.paysAt <= t
  const mined = paid && blockAfter(o.paysAt!) <= t
  if (o.status === 'AWAITING_PAYMENT' && paid && (scope === 'all' || !mined)) detected(o, t)
  if (o.status === 'PAYMENT_DETECTED' && mined && scope === 'all') {
    o.status = 'PAID'
    o.funded = false
    if (sim.counting && o.detectedAt !== undefined) {
      if (sim.arc) {
        const blocks: number[] = []
        for (let b = blockAfter(o.detectedAt); b <= t; b += BLOCK_EVERY_MS) blocks.push(b)
        sim.arcCalls.push(followCalls(o.detectedAt, t, blocks) + 1)
      } else sim.proofCalls += 1
    }
  }
  if (o.status === 'AWAITING_PAYMENT' && t >= deadlineOf(o, sim.settings) && scope === 'all')
    o.status = 'EXPIRED'
  o.mempoolOnly = scope === 'unconfirmed'
  if (scope === 'all') o.fullLookDue = false
  o.nextCheck = t + intervalFor(o, t, sim.settings, sim.pushed)
}

/** The payment is recorded at `t`: money on the way, and followed on the second source. */
function detected(o: SimOrder, t: number) {
  o.status = 'PAYMENT_DETECTED'
  o.funded = true
  o.detectedAt = t
}

/** Pushed payments up to `t`, judged at once: the order's next look stays, or comes sooner. */
function pushPayments(sim: Sim, t: number) {
  for (const o of sim.watch.values())
    if (o.status === 'AWAITING_PAYMENT' && o.paysAt !== undefined && o.paysAt <= t) {
      detected(o, t)
      o.nextCheck = Math.min(o.nextCheck, t + intervalFor(o, t, sim.settings, true))
    }
}

/** The next moment the worker has something to do after a pass at `t`. */
function nextPassAt(sim: Sim, t: number, events: number) {
  let next = events
  for (const o of sim.watch.values()) {
    next = Math.min(next, o.nextCheck)
    if (sim.pushed && o.status === 'AWAITING_PAYMENT' && o.paysAt !== undefined)
      next = Math.min(next, Math.max(o.paysAt, t))
  }
  return Math.max(next, t + sim.settings.workerFastPollMs)
}

export function callsOverLife({
  ordersPerDay,
  pushConnected,
  settings,
  arc = true,
  days = 1,
}: {
  ordersPerDay: number
  pushConnected: boolean
  /** The second source (ARC) follows payments and gives their proofs. */
  arc?: boolean
  settings: LifetimeSettings
  days?: number
}): Lifetime {
  const sim: Sim = {
    settings,
    pushed: pushConnected,
    arc,
    watch: new Map(),
    serial: 0,
    random: 1,
    proofCalls: 0,
    arcCalls: [],
    counting: false,
  }
  const every = DAY / ordersPerDay
  const watchFor = settings.expiryMs + settings.graceMs + lateWatchMs(settings)
  for (let t = -watchFor; t < 0; t += every) place(sim, t, 0)
  const countFrom = 60 * MINUTE
  const end = countFrom + days * DAY
  const counted = { calls: 0, looks: 0, watched: 0 }
  let nextOrderAt = 0
  let nextBlockAt = BLOCK_EVERY_MS
  for (let t = 0, pass = 1; t < end; pass += 1) {
    sim.counting = t >= countFrom
    for (; nextOrderAt <= t; nextOrderAt += every) place(sim, nextOrderAt, nextOrderAt)
    for (; nextBlockAt <= t; nextBlockAt += BLOCK_EVERY_MS)
      for (const o of sim.watch.values()) afterBlock(o, nextBlockAt, settings, pushConnected)
    if (pushConnected) pushPayments(sim, t)
    for (const o of sim.watch.values())
      if (o.expiresAt + lateWatchMs(settings) < t) sim.watch.delete(o.id)
    counted.watched = Math.max(counted.watched, sim.watch.size)
    const { plan } = planBatches({
      watched: sim.watch.values(),
      now: t,
      pass,
      callsPerPass: settings.callsPerPass,
      settings,
    })
    for (const batch of plan) {
      if (t >= countFrom) {
        counted.calls += 1
        counted.looks += batch.orders.length
      }
      for (const o of batch.orders) look(sim, o, batch.scope, t)
    }
    t = nextPassAt(sim, t, Math.min(nextOrderAt, nextBlockAt, end))
  }
  const ordersCounted = (days * DAY) / every
  return {
    ordersPerDay,
    pushConnected,
    arc,
    callsPerOrder: +((counted.calls + sim.proofCalls) / ordersCounted).toFixed(1),
    looksPerOrder: +(counted.looks / ordersCounted).toFixed(1),
    tipCallsPerDay: Math.round(
      pushConnected ? DAY / PUSHED_TIP_POLL_MS + DAY / BLOCK_EVERY_MS : DAY / settings.tipPollMs,
    ),
    headerCallsPerDay: DAY / BLOCK_EVERY_MS,
    arcCallsPerPaidOrder: {
      mean: +(sim.arcCalls.reduce((a, b) => a + b, 0) / Math.max(1, sim.arcCalls.length)).toFixed(
        1,
      ),
      max: Math.max(0, ...sim.arcCalls),
    },
    watched: counted.watched,
  }
}
