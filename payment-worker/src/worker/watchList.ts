import type { Order } from '@shop/cms/engine'
import { slugs } from '@shop/cms/engine'
import { verifiedHex } from '@shop/chain'

import {
  newWatchedOrdersWhere,
  RECHECK_WHERE,
  WATCH_FIELDS,
  watchedOrdersWhere,
} from '../watch/query'
import type { Watched } from '../watch/watched'
import { deadlineOf, firstLookAt, intervalFor, isFresh, isOpen } from '../watch/watched'
import { streamTrusted } from './trust'
import type { WorkerContext } from './state'

/**
 * What to watch: the orders the watch query finds, kept in memory (all of them reloaded every
 * minute, new ones picked up every pass and between calls, most reads of new orders leaving out
 * the ones already watched), the owner's re-checks, and the orders a push paid before the worker
 * read them (looked up by address).
 */

const FULL_RELOAD_MS = 60_000
/** Orders read per query when the watch list is loaded. */
const WATCH_PAGE_SIZE = 500
/**
 * New orders are looked up with this overlap, for commits that land after later timestamps; the
 * minute's full reload catches any later straggler.
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
>

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
 * Hands the watched orders to `each` one page at a time, so a reload of many thousands of
 * orders never holds them all in memory at once.
 */
async function forEachWatchedPage(
  ctx: WorkerContext,
  where: ReturnType<typeof watchedOrdersWhere>,
  each: (orders: Order[]) => void,
) {
  for (let page = 1; ; page += 1) {
    const found = await ctx.payload.find({
      collection: slugs.orders,
      where,
      select: WATCH_FIELDS,
      depth: 0,
      limit: WATCH_PAGE_SIZE,
      page,
      sort: 'createdAt',
    })
    each(found.docs as Order[])
    if (!found.hasNextPage) return
  }
}

/**
 * Reads the orders to watch: all of them once a minute (forgetting those no longer watched),
 * the new ones otherwise. (Their "order created" e-mails were queued with them, by checkout.)
 */
export async function refreshWatchList(ctx: WorkerContext, now: number, { newOnly = false } = {}) {
  const { settings } = ctx
  const full = !newOnly && now - ctx.list.lastFullReload >= FULL_RELOAD_MS
  const since = ctx.list.newestCreatedAt - NEW_ORDER_OVERLAP_MS
  // The look-back's orders already watched are read again (brought up to date) at most every
  // LOOK_BACK_REREAD_MS; the reads between leave them out.
  const reread = full || now - ctx.list.lookBackReadAt >= LOOK_BACK_REREAD_MS
  if (reread) ctx.list.lookBackReadAt = now
  const where = full
    ? watchedOrdersWhere(now, settings)
    : newWatchedOrdersWhere(now, since, settings, reread ? [] : watchedSince(ctx, since))
  const seen = new Set<string>()
  await forEachWatchedPage(ctx, where, (orders) => {
    if (full) for (const order of orders) seen.add(order.id)
    takeUp(ctx, orders, now)
  })
  if (full) {
    // An order read meanwhile beside the loop (push.ts) may be younger than this reload.
    for (const [id, w] of ctx.watch)
      if (!seen.has(id) && w.createdAt < now - NEW_ORDER_OVERLAP_MS) forget(ctx, id)
    ctx.list.lastFullReload = now
  }
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
    w.fullLookDue = true
    w.recorded = undefined
    w.nextCheck = now
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
