import type { Where } from 'payload'

import type { Order } from '@shop/cms/engine'
import { slugs } from '@shop/cms/engine'
import { verifiedHex } from '@shop/chain'

import {
  isWatchedOrder,
  newWatchedOrdersWhere,
  RECHECK_WHERE,
  WATCH_FIELDS,
  watchedOrdersWhere,
} from '../watch/query'
import type { Watched } from '../watch/watched'
import {
  askFullLook,
  deadlineOf,
  firstLookAt,
  intervalFor,
  isFresh,
  isOpen,
} from '../watch/watched'
import { streamTrusted } from './trust'
import type { WorkerContext } from './state'

/**
 * What to watch: the orders the watch query finds, kept in memory, the owner's re-checks, and the
 * orders a push paid before the worker read them (looked up by address). All of them are read at
 * start and every hour; between, the orders changed in the last minute every minute (so what the
 * owner or the web process changed reaches the worker, and an order leaving the late-watch window
 * is let go), and the new ones every pass and between calls (most reads leaving out the ones
 * already watched). A minute's read costs what changed, not the whole late-watch window: a busy
 * month keeps thousands of orders in it, and reading them all took the worker's thread for
 * over a second every minute.
 */

/** Every watched order read again: a safety net for a change the reads of changes missed. */
const FULL_RELOAD_MS = 3_600_000
/** The orders changed since the last read are read this often. */
const CHANGES_EVERY_MS = 60_000
/**
 * Changes are looked up this far before the newest change the worker has read, for commits that
 * land after later timestamps (a transaction held by a slow write).
 */
const CHANGES_OVERLAP_MS = 30_000
/** Orders read per query when the watch list is loaded. */
const WATCH_PAGE_SIZE = 500
/**
 * New orders are looked up with this overlap, for commits that land after later timestamps; the
 * minute's read of changes catches any later straggler.
 */
const NEW_ORDER_OVERLAP_MS = 5_000
/**
 * The look-back's orders already watched are read again this often, no more: a rush of a
 * thousand checkouts is all inside it, and reading it whole at every read (several a second)
 * kept the worker's thread busy through the rush's detection.
 */
const LOOK_BACK_REREAD_MS = 2_000
/** At most this many watched orders are left out of a read of new orders by id. */
const MAX_LEFT_OUT = 10_000
/** Slack between the web process's clock (an order's createdAt) and the worker's. */
const CLOCK_MARGIN_MS = 2_000
type WatchedOrder = Pick<
  Order,
  | 'id'
  | 'paymentAddress'
  | 'createdAt'
  | 'gatewayExpiresAt'
  | 'status'
  | 'amountSatoshiReceived'
  | 'attentionSince'
> & { flags?: { paidInvalid?: boolean | null } | null }

/** Money has arrived on an order still waiting for it: confirmations decide what comes next. */
export const isFunded = (order: Pick<Order, 'status' | 'amountSatoshiReceived'>) =>
  isOpen(order.status) && (order.amountSatoshiReceived ?? 0) > 0

/** Watches the order, or brings what the worker knows of it up to date. */
export function track(ctx: WorkerContext, order: WatchedOrder, now: number) {
  const known = ctx.watch.get(order.id)
  const createdAt = new Date(order.createdAt).getTime()
  ctx.list.newestCreatedAt = Math.max(ctx.list.newestCreatedAt, createdAt)
  const entry: Watched = known ?? {
    id: order.id,
    address: order.paymentAddress,
    createdAt,
    expiresAt: new Date(order.gatewayExpiresAt).getTime(),
    status: order.status,
    funded: false,
    nextCheck: now,
    mempoolOnly: false,
    // Its payment may already be in a block: the first look includes confirmed transactions
    // (unless the order is younger than the last block this worker saw, below).
    fullLookDue: true,
    // A payment in doubt (or invalid) is read from the database at the first look.
    inDoubt: Boolean(order.flags?.paidInvalid),
  }
  entry.status = order.status
  entry.expiresAt = new Date(order.gatewayExpiresAt).getTime()
  entry.funded = isFunded(order)
  entry.attention = Boolean(order.attentionSince)
  if (!known) watchNew(ctx, entry, now)
}

function watchNew(ctx: WorkerContext, entry: Watched, now: number) {
  const { watchSettings } = ctx
  // An order created after the last block this worker saw: a block mined since then changes
  // the tip, and that change asks for a full look at every fresh order. Its first look is one
  // mempool call instead of two (a payment made right after checkout is seen sooner).
  if (entry.createdAt > ctx.tip.changedAt + CLOCK_MARGIN_MS && isFresh(entry, now, watchSettings)) {
    entry.fullLookDue = false
    const pushedSince = streamTrusted(ctx) ? ctx.push.trustedSince + CLOCK_MARGIN_MS : undefined
    entry.nextCheck = firstLookAt(entry, now, watchSettings, pushedSince)
  }
  // Older orders found at start are spread over their interval instead of all at once; an open
  // order past its deadline waits for a decision (paid in time, or expired), so it is looked at
  // now (the budget still paces the calls).
  const awaitsDecision = isOpen(entry.status) && deadlineOf(entry, watchSettings) <= now
  if (!isFresh(entry, now, watchSettings) && !awaitsDecision)
    entry.nextCheck =
      now + Math.random() * intervalFor(entry, now, watchSettings, streamTrusted(ctx))
  ctx.watch.set(entry.id, entry)
  ctx.byAddress.set(entry.address, entry)
  // A push that paid this address before the worker read the order is judged now.
  const early = ctx.push.unmatched.get(entry.address)
  if (early) {
    ctx.push.unmatched.delete(entry.address)
    ctx.push.queue.push({
      w: entry,
      txid: early.txid,
      hex: verifiedHex({ txid: early.txid, addresses: [], hex: early.hex }),
      at: early.at,
    })
    ctx.askPushWork()
  }
}

export function forget(ctx: WorkerContext, id: string) {
  const w = ctx.watch.get(id)
  ctx.watch.delete(id)
  ctx.failing.delete(id)
  if (w) ctx.unreadAddresses.delete(w.address)
  if (w && ctx.byAddress.get(w.address) === w) ctx.byAddress.delete(w.address)
}

/**
 * Hands the orders `where` finds to `each` one page at a time, in the order of `field` (a
 * timestamp), so a read of many thousands of orders never holds them all in memory at once. Each
 * page goes on from the last one's `field` (less the orders read at that very time): no offset
 * to walk again, no count of the rest.
 */
async function forEachPage(
  ctx: WorkerContext,
  where: Where,
  field: 'createdAt' | 'updatedAt',
  each: (orders: Order[]) => void,
) {
  let from: string | undefined
  let readAtFrom: string[] = []
  for (;;) {
    const found = await ctx.payload.find({
      collection: slugs.orders,
      where:
        from === undefined
          ? where
          : {
              and: [
                where,
                { [field]: { greater_than_equal: from } },
                ...(readAtFrom.length > 0 ? [{ id: { not_in: readAtFrom } }] : []),
              ],
            },
      select: WATCH_FIELDS,
      depth: 0,
      limit: WATCH_PAGE_SIZE,
      pagination: false,
      sort: field,
    })
    const orders = found.docs as Order[]
    each(orders)
    if (orders.length < WATCH_PAGE_SIZE) return
    const last = orders[orders.length - 1]![field]
    const atLast = orders.filter((order) => order[field] === last).map((order) => order.id)
    readAtFrom = last === from ? [...readAtFrom, ...atLast] : atLast
    from = last
  }
}

/**
 * Reads the orders to watch: all of them every hour (forgetting those no longer watched), the
 * changed ones every minute, the new ones otherwise. (Their "order created" e-mails were queued
 * with them, by checkout.)
 */
export async function refreshWatchList(ctx: WorkerContext, now: number, { newOnly = false } = {}) {
  if (!newOnly && now - ctx.list.lastFullReload >= FULL_RELOAD_MS) return reloadAll(ctx, now)
  if (!newOnly && now - ctx.list.changesReadAt >= CHANGES_EVERY_MS) await readChanges(ctx, now)
  const since = ctx.list.newestCreatedAt - NEW_ORDER_OVERLAP_MS
  // The look-back's orders already watched are read again (brought up to date) at most every
  // LOOK_BACK_REREAD_MS; the reads between leave them out.
  const reread = now - ctx.list.lookBackReadAt >= LOOK_BACK_REREAD_MS
  if (reread) ctx.list.lookBackReadAt = now
  const where = newWatchedOrdersWhere(
    now,
    since,
    ctx.settings,
    reread ? [] : watchedSince(ctx, since),
  )
  await forEachPage(ctx, where, 'createdAt', (orders) => takeUp(ctx, orders, now))
}

/** Every watched order read, and the orders no longer watched forgotten. */
async function reloadAll(ctx: WorkerContext, now: number) {
  const started = ctx.clock()
  const seen = new Set<string>()
  await forEachPage(ctx, watchedOrdersWhere(now, ctx.settings), 'createdAt', (orders) => {
    for (const order of orders) seen.add(order.id)
    takeUp(ctx, orders, now)
    noteChanges(ctx, orders)
  })
  // An order read meanwhile beside the loop (push.ts) may be younger than this reload.
  for (const [id, w] of ctx.watch)
    if (!seen.has(id) && w.createdAt < now - NEW_ORDER_OVERLAP_MS) forget(ctx, id)
  ctx.list.lastFullReload = now
  ctx.list.changesReadAt = now
  ctx.list.lookBackReadAt = now
  ctx.logger.info({ orders: seen.size, ms: ctx.clock() - started }, 'watch list read')
}

/**
 * The orders changed since the newest change read (less the overlap), read through the
 * updatedAt index: each watched again, brought up to date, or forgotten; and the watched orders
 * whose late-watch window has ended since, forgotten (an owner's re-check stays until done).
 */
async function readChanges(ctx: WorkerContext, now: number) {
  const { settings } = ctx
  ctx.list.changesReadAt = now
  // With nothing watched at the last reload there is no newest change to go on from: the
  // changes since that reload are enough (an order only becomes watched by being placed).
  const from = ctx.list.newestUpdatedAt || ctx.list.lastFullReload - CHANGES_EVERY_MS
  const since = new Date(from - CHANGES_OVERLAP_MS).toISOString()
  await forEachPage(ctx, { updatedAt: { greater_than: since } }, 'updatedAt', (orders) => {
    for (const order of orders) {
      const expiresAt = new Date(order.gatewayExpiresAt).getTime()
      if (isWatchedOrder(order.status, expiresAt, now, settings)) track(ctx, order, now)
      else if (!ctx.watch.get(order.id)?.recheck) forget(ctx, order.id)
    }
    noteChanges(ctx, orders)
  })
  for (const [id, w] of ctx.watch)
    if (!w.recheck && !isWatchedOrder(w.status, w.expiresAt, now, settings)) forget(ctx, id)
}

/** The newest change among `orders`, where the next read of changes goes on. */
function noteChanges(ctx: WorkerContext, orders: Order[]) {
  for (const order of orders)
    ctx.list.newestUpdatedAt = Math.max(ctx.list.newestUpdatedAt, Date.parse(order.updatedAt))
}

/**
 * The watched orders created after `since`: what a read of new orders would return again (a rush
 * of a thousand checkouts is all inside its look-back), so it leaves them out.
 */
function watchedSince(ctx: WorkerContext, since: number): string[] {
  const ids: string[] = []
  for (const w of ctx.watch.values()) if (w.createdAt > since) ids.push(w.id)
  // Past this many (beyond any rush checkout can take in a few seconds) the read takes them all
  // again rather than send a statement longer than SQLite's limit on parameters.
  return ids.length <= MAX_LEFT_OUT ? ids : []
}

/** Orders read from the database, watched (or brought up to date). */
function takeUp(ctx: WorkerContext, orders: Order[], now: number) {
  for (const order of orders) track(ctx, order, now)
}

/**
 * The watched orders paid to these addresses that the worker has not read yet (a push paid
 * them), read now: their pushes are judged as they are taken up (`watchNew`).
 */
export async function watchOrdersPaidTo(ctx: WorkerContext, addresses: string[]) {
  const now = ctx.clock()
  const found = await ctx.payload.find({
    collection: slugs.orders,
    where: {
      and: [watchedOrdersWhere(now, ctx.settings), { paymentAddress: { in: addresses } }],
    },
    select: WATCH_FIELDS,
    depth: 0,
    limit: addresses.length,
    pagination: false,
  })
  const orders = (found.docs as Order[]).filter((o) => !ctx.watch.has(o.id))
  takeUp(ctx, orders, now)
}

/** Orders the owner asked to re-check: watched now with a full look, however old. */
export async function pickUpRechecks(ctx: WorkerContext, now: number) {
  const asked = await ctx.payload.find({
    collection: slugs.orders,
    where: RECHECK_WHERE,
    // Oldest request first, read off the recheckRequestedAt index (the default, newest created
    // first, walks every order for the limit).
    sort: 'recheckRequestedAt',
    select: WATCH_FIELDS,
    depth: 0,
    limit: WATCH_PAGE_SIZE,
    pagination: false,
  })
  for (const order of asked.docs as Order[]) {
    track(ctx, order, now)
    const w = ctx.watch.get(order.id)!
    if (w.recheck) continue
    w.recheck = true
    askFullLook(w, now, { atOnce: true })
    w.recorded = undefined
  }
}

/** The owner's re-check is done: the request is cleared on the order. */
export async function clearRecheck(ctx: WorkerContext, w: Watched) {
  if (!w.recheck) return
  w.recheck = false
  await ctx.payload.update({
    collection: slugs.orders,
    id: w.id,
    data: { recheckRequestedAt: null },
    depth: 0,
  })
  ctx.logger.info({ orderId: w.id }, "order re-checked at the owner's request")
}
