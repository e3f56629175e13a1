import type { HistoryScope } from '@shop/chain'
import { MAX_ADDRESSES_PER_CALL } from '@shop/chain'

import type { Watched, WatchSettings } from './watched'
import { awaitsDecision, comesFirst, scopeOf } from './watched'

/**
 * The batches of one pass (a pure function): which due orders are asked about, in which calls,
 * within the pass's budget of chain calls.
 * - Fresh orders and the owner's re-checks first; older orders after them.
 * - One call covers up to 20 addresses, a full look ('all': confirmed and unconfirmed, from
 *   WhatsOnChain's history/all) as a mempool-only look.
 * - Older orders get one batch every OLD_SHARE_EVERY_PASSES passes even when fresh ones would use
 *   the whole budget, so a rush of new orders never stops late payments from being seen.
 * - A call for fresh orders with room left takes fresh orders not yet due (the soonest due
 *   first, same look): they cost nothing there, and polls of many buyers come together in full
 *   calls instead of one call each as their times drift apart. A call for older orders with
 *   room left takes older orders due within OLDER_PULL_FORWARD_MS the same way: at a hundred
 *   orders a day, older orders' looks otherwise went one address per call.
 * - Among fresh orders due, the owner's re-checks, then the youngest first (`inLine`).
 */
export type Batch = { scope: HistoryScope; orders: Watched[] }

/** Older orders get one batch every this many passes when fresh ones use the whole budget. */
export const OLD_SHARE_EVERY_PASSES = 3

/**
 * An older order is looked at up to this much before it is due, in a call with room left: a
 * small part of its interval (half an hour and more once its day of close watch is over).
 */
export const OLDER_PULL_FORWARD_MS = 10 * 60_000

/** The chain calls a batch costs: one, whatever its scope (history/all answers both halves). */
export const batchCost = (_batch: Pick<Batch, 'scope'>) => 1

/** Fills the batches' room with the orders of `early` (soonest due first) of the same scope. */
function fill(batches: Batch[], early: Watched[], now: number, settings: WatchSettings) {
  for (const batch of batches) {
    for (let i = 0; i < early.length && batch.orders.length < MAX_ADDRESSES_PER_CALL;) {
      if (scopeOf(early[i]!, now, settings) === batch.scope)
        batch.orders.push(...early.splice(i, 1))
      else i += 1
    }
  }
}

export function planBatches({
  watched,
  now,
  pass,
  callsPerPass,
  settings,
  olderShare = pass % OLD_SHARE_EVERY_PASSES === 0,
}: {
  watched: Iterable<Watched>
  now: number
  /** The pass's number (1, 2, ...): older orders' share comes every third pass. */
  pass: number
  callsPerPass: number
  settings: WatchSettings
  /** Whether this plan starts with older orders' share (by default, every third pass). */
  olderShare?: boolean
}): { plan: Batch[]; backlog: boolean } {
  const all = [...watched]
  const due = all.filter((w) => w.nextCheck <= now)
  const first = (w: Watched) => comesFirst(w, now, settings)
  /** Calls of one scope each, in the order of the list (by its first order, the one first in line). */
  const batchesOf = (list: Watched[]) => {
    const byScope = { unconfirmed: [] as Watched[], all: [] as Watched[] }
    for (const w of list) byScope[scopeOf(w, now, settings)].push(w)
    const batches: Batch[] = []
    for (const scope of ['all', 'unconfirmed'] as const)
      for (let i = 0; i < byScope[scope].length; i += MAX_ADDRESSES_PER_CALL)
        batches.push({ scope, orders: byScope[scope].slice(i, i + MAX_ADDRESSES_PER_CALL) })
    const place = new Map(list.map((w, i) => [w, i]))
    return batches.sort((a, b) => place.get(a.orders[0]!)! - place.get(b.orders[0]!)!)
  }
  const freshBatches = batchesOf(inLine(due.filter(first), now, settings))
  if (freshBatches.some((b) => b.orders.length < MAX_ADDRESSES_PER_CALL)) {
    const early = all
      .filter((w) => w.nextCheck > now && first(w))
      .sort((a, b) => a.nextCheck - b.nextCheck)
    fill(freshBatches, early, now, settings)
  }
  const olderBatches = batchesOf(
    due.filter((w) => !first(w)).sort((a, b) => a.nextCheck - b.nextCheck),
  )
  if (olderBatches.some((b) => b.orders.length < MAX_ADDRESSES_PER_CALL)) {
    const soon = all
      .filter((w) => w.nextCheck > now && w.nextCheck <= now + OLDER_PULL_FORWARD_MS && !first(w))
      .sort((a, b) => a.nextCheck - b.nextCheck)
    fill(olderBatches, soon, now, settings)
  }
  const plan: Batch[] = []
  let budget = callsPerPass
  const take = (batches: Batch[]) => {
    while (batches.length > 0 && batchCost(batches[0]!) <= budget) {
      budget -= batchCost(batches[0]!)
      plan.push(batches.shift()!)
    }
  }
  if (olderBatches.length > 0 && olderShare) {
    const share = olderBatches.shift()!
    plan.push(share)
    budget -= batchCost(share)
  }
  take(freshBatches)
  take(olderBatches)
  return { plan, backlog: freshBatches.length + olderBatches.length > 0 }
}

/**
 * A fresh order not looked at for this long is about to leave its window of doubt (10 s): when
 * the budget cannot serve every order as often as asked, it goes first.
 */
export const OVERDUE_AFTER_MS = 6_000

/**
 * The order in which fresh orders due are looked at when the budget cannot look at all of them
 * as often as asked: the owner's re-checks; then orders awaiting their decision past the
 * deadline and orders about to leave their window of doubt, longest waiting first; then the
 * youngest first, since a buyer pays most often in the first minutes and the newest order's
 * first looks are those that find a payment. Looked at oldest-due first, a new order waited
 * behind every fresh order overdue; youngest first alone, an order near its deadline waited
 * minutes behind a hundred younger ones. Orders alike in all of that go soonest due first.
 */
export function inLine(list: Watched[], now: number, settings: WatchSettings): Watched[] {
  // Each order's place is worked out once: the plan runs every pass over every open order, and
  // a comparator that worked it out per comparison was most of a pass's time at 1,000 orders.
  const keyed = list.map((w) => {
    const waitingSince = w.lookedAt ?? w.createdAt
    const urgent = awaitsDecision(w, now, settings) || now - waitingSince >= OVERDUE_AFTER_MS
    return { w, recheck: w.recheck === true, urgent, waitingSince }
  })
  keyed.sort(
    (a, b) =>
      Number(b.recheck) - Number(a.recheck) ||
      Number(b.urgent) - Number(a.urgent) ||
      (a.urgent ? a.waitingSince - b.waitingSince : b.w.createdAt - a.w.createdAt) ||
      a.w.nextCheck - b.w.nextCheck,
  )
  return keyed.map((k) => k.w)
}
