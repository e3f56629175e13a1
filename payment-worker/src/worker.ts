import type { Payload } from 'payload'

import type { AddressTransaction, ChainSource, PushedTransaction } from '@shop/chain'
import { deriveOrderAddress, verifiedHex } from '@shop/chain'

import type { Order } from '@shop/cms/engine'
import {
  ADDRESS_INDEX_COUNTER,
  checkChainAlert,
  clearOrderAttention,
  countChainLook,
  failureReason,
  fulfilOrder,
  markOrderAttention,
  queueOrderCreatedEmails,
  recordChainHealth,
  runInWriterScope,
  fileStoreOf,
  releaseOrphanedJobs,
  runDueJobs,
  slugs,
} from '@shop/cms/engine'
import type { Env } from '@shop/cms/process'
import type { LeaseHolder } from './lease'
import { recordPayments, settleOrder } from './process-order'
import { lateWatchMs } from './watch/interval'
import type { Batch } from './watch/plan'
import { batchCost, OLD_SHARE_EVERY_PASSES, planBatches } from './watch/plan'
import {
  newWatchedOrdersWhere,
  RECHECK_WHERE,
  WATCH_FIELDS,
  watchedOrdersWhere,
} from './watch/query'
import type { Watched, WatchSettings } from './watch/watched'
import { comesFirst, deadlineOf, intervalFor, isFresh, isOpen, retryDelayMs } from './watch/watched'

/**
 * The payment worker's loop: what to watch is a query (watch/query.ts), the batches of a pass a
 * pure plan (watch/plan.ts), and this file the run (the chain calls and the database). It keeps the watched orders in memory (all of them reloaded every
 * minute, new ones picked up every pass) and spends a budget of chain calls per pass, so it
 * never asks WhatsOnChain more than WOC_MAX_REQUESTS_PER_SECOND (3 without a key) however many
 * orders are open:
 * - fresh orders (awaiting payment, created in the last 15 minutes) first, every
 *   WORKER_FAST_POLL_MS for their first two minutes and less often as they age
 *   (watch/watched.ts), with one mempool-only call per 20 addresses (a payment shows up there
 *   first; a call's spare room takes fresh orders due soon);
 * - every new block triggers a full look (confirmed and unconfirmed) at the fresh orders, at
 *   those with money on the way and at those seen only in the mempool since; a newly seen
 *   order's first look is a full one too, unless it is younger than the last block the worker
 *   saw (a block since then triggers one anyway);
 * - a pass's calls are planned one at a time, new orders picked up between them, so a payment
 *   made right after checkout is looked for at the next call, not after the pass; a look at
 *   older orders goes on beside them (one at a time), so a buyer's look never waits for the
 *   request that an older look waits for;
 * - older, expired, cancelled and already paid orders (late, extra or repeated payments) with
 *   intervals growing with their age (watch/interval.ts: minutes on the first day, then half
 *   an hour, then three hours), from a reserved share of the budget, for LATE_WATCH_DAYS after
 *   their expiry. Money sent to a paid order's address is recorded on it and flagged; the
 *   order's status is never moved back;
 * - an order the owner asked to re-check from the admin (recheckRequestedAt), at once, with a
 *   full look, however old.
 * It queues each new order's "order created" e-mail, records payments, settles statuses, fulfils
 * paid orders and sends queued e-mails. A failing
 * chain source is retried with exponential backoff; nothing is lost because every decision is
 * re-derived from the database on the next look. One order whose judgement or delivery throws
 * is logged, shown to the owner as needing attention (its `attention` notice) and tried again
 * on its own with a growing delay, while the pass goes on with the others; the jobs (e-mails,
 * webhooks) run at the end of every pass whatever its looks did.
 */

export type WorkerSettings = Pick<
  Env,
  | 'confirmationsRequired'
  | 'monitoringWindowHours'
  | 'lateWatchDays'
  | 'filesDir'
  | 'mediaDir'
  | 'documentsDir'
  | 'storage'
  | 'downloadTokenTtlHours'
  | 'downloadMaxUses'
  | 'publicUrl'
  | 'workerFastPollMs'
  | 'workerSlowPollMs'
  | 'wocMaxRequestsPerSecond'
  | 'paymentGraceSeconds'
  | 'paymentMissingMinutes'
  | 'emailsPerAddressPerHour'
  | 'webhook'
  | 'ownerEmail'
  | 'chainAlertMinutes'
  | 'chainSource'
  | 'wocApiUrl'
  | 'emailDelivery'
  | 'workerCrashAt'
  | 'bsvXpub'
  | 'bsvNetwork'
>

type Log = Pick<Payload['logger'], 'info' | 'warn' | 'error' | 'debug'>

export type PaymentWorker = {
  /** One pass over the due orders (exposed for tests). */
  runOnce: () => Promise<void>
  /**
   * What the chain's push stream said (chain/src/feed.ts): a transaction paying a watched
   * address is fetched and judged at once, without waiting for its order's next look; a new
   * block asks for the tip at once. Hints only: the looks go on as before.
   */
  pushed: {
    transaction: (tx: PushedTransaction) => void
    block: (height: number) => void
  }
  stop: () => Promise<void>
  /** Resolves after the next complete pass. */
  nextPass: () => Promise<void>
}

const MAX_BACKOFF_MS = 30_000
const FULL_RELOAD_MS = 60_000
/** Orders read per query when the watch list is loaded. */
const WATCH_PAGE_SIZE = 500
/**
 * New orders are looked up with this overlap, for commits that land after later timestamps; the
 * minute's full reload catches any later straggler.
 */
const NEW_ORDER_OVERLAP_MS = 5_000
/**
 * While a look at older orders is under way, new orders are looked for this often, and the loop
 * wakes when a fresh order is due. A 50 ms tick that read new orders and planned every time kept
 * the worker at two thirds of a core through a rush, beside the web process it shares the
 * machine with.
 */
const NEW_ORDERS_EVERY_MS = 250
/** Slack between the web process's clock (an order's createdAt) and the worker's. */
const CLOCK_MARGIN_MS = 2_000
/**
 * A pushed transaction paying an address the worker does not watch yet is kept this long: the
 * buyer may pay before the worker has read the new order (it reads them every pass).
 */
const UNMATCHED_PUSH_MS = 30_000
/** At most this many unmatched pushes are kept (WoC's stream carries the whole mempool). */
const UNMATCHED_PUSH_MAX = 50_000
/**
 * The next addresses checkout will hand out that the worker knows: a push paying one of them is
 * an order the worker has not read yet, read at once (a wallet open on the pay screen pays
 * within the quarter second between two reads).
 */
const UPCOMING_ADDRESSES = 20
/** Pushes seen this recently: the stream is up, and the upcoming addresses are kept. */
const PUSH_RECENT_MS = 60_000

/** Looks in a row an address goes unread before its order is shown to the owner. */
const ADDRESS_FAILURES_BEFORE_NOTICE = 3

/** Money has arrived on an order still waiting for it: confirmations decide what comes next. */
const isFunded = (order: Pick<Order, 'status' | 'amountSatoshiReceived'>) =>
  isOpen(order.status) && (order.amountSatoshiReceived ?? 0) > 0

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

const historyKey = (transactions: readonly AddressTransaction[]) =>
  transactions
    .map((t) => `${t.txid}@${t.height ?? ''}`)
    .sort()
    .join(',')

/** The lease ran out during a pass (the process stalled): another worker may be running. */
class LeaseLostError extends Error {
  constructor() {
    super('the worker lease was lost during a pass; standing by')
  }
}

export function startPaymentWorker({
  payload,
  chain,
  settings,
  logger,
  autoStart = true,
  clock = Date.now,
  lease,
  onHeartbeat,
}: {
  payload: Payload
  chain: ChainSource
  settings: WorkerSettings
  logger: Log
  autoStart?: boolean
  /**
   * The worker's clock, for its schedule and for the moment a look begins. Tests move it to
   * see what happens hours or days later; payments are still judged by the chain's times.
   */
  clock?: () => number
  /** Runs passes only while it holds this lease (lease.ts); without one, always. */
  lease?: LeaseHolder
  /** Called after each successful pass, or lease check while standing by (heartbeat.ts). */
  onHeartbeat?: (role: 'active' | 'standby') => void
}): PaymentWorker {
  const watch = new Map<string, Watched>()
  /** The watched orders by payment address, for what the push stream says. */
  const byAddress = new Map<string, Watched>()
  /**
   * Pushed transactions paying watched orders, to judge at the next step of the loop, with when
   * the stream carried them (the moment they are judged on time or late by, as a look's start).
   */
  let pushedQueue: { w: Watched; txid: string; hex?: string; at: number }[] = []
  /** Pushed payments to addresses not watched yet, newest last: address -> txid and when. */
  const unmatched = new Map<string, { txid: string; hex?: string; at: number }>()
  /** Wakes a pass sleeping until its next look, or starts the next pass now. */
  let wakePass: (() => void) | undefined
  /** The orders a look is asking the chain about and judging: pushes for them wait for it. */
  const inLook = new Map<Watched, number>()
  /** Judgements of one order run one after the other (a look's, and a push's beside the loop). */
  const judging = new Map<string, Promise<void>>()
  /**
   * Orders whose judgement or delivery threw: how many times in a row, and when each is tried
   * again (`retryDelayMs`). Cleared by the order's next success.
   */
  const failing = new Map<string, { failures: number; retryAt: number }>()
  /** Addresses the chain source could not read, with how many looks in a row. */
  const unreadAddresses = new Map<string, number>()
  /** Address -> index of the next addresses checkout will hand out (`UPCOMING_ADDRESSES`). */
  const upcoming = new Map<string, number>()
  let lastPushAt = Number.NEGATIVE_INFINITY
  /** The newest order seen when the upcoming addresses were last read. */
  let upcomingAsOf = Number.NaN
  /** The work pushes ask for beside the loop: one at a time, again if asked meanwhile. */
  let pushWork: Promise<void> | undefined
  let pushWorkAgain = false
  let readOrdersNow = false
  let lastFullReload = 0
  let newestCreatedAt = 0
  let lastTip = -1
  /** When this worker last saw the chain's tip change (its first reading counts as one). */
  let tipChangedAt = Number.POSITIVE_INFINITY
  let lastTipCheck = 0
  /** The push stream announced a block: the tip is read at the next step, whatever the time. */
  let tipWanted = false
  let passes = 0
  let backlog = false
  let failures = 0
  /** The end of the last pass whose looks at the chain all succeeded while orders were watched. */
  let lastLookOkAt: Date | null = null
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let passWaiters: (() => void)[] = []

  const tipPollMs = Math.min(settings.workerSlowPollMs, 5000)
  const callsPerPass = Math.max(
    2,
    Math.round(
      (settings.wocMaxRequestsPerSecond * Math.max(settings.workerFastPollMs, 1000)) / 1000,
    ),
  )

  const graceMs = settings.paymentGraceSeconds * 1000
  const watchSettings: WatchSettings = { ...settings, graceMs }

  function track(
    order: Pick<
      Order,
      | 'id'
      | 'paymentAddress'
      | 'createdAt'
      | 'gatewayExpiresAt'
      | 'status'
      | 'amountSatoshiReceived'
      | 'attentionSince'
    >,
    now: number,
  ) {
    const known = watch.get(order.id)
    const createdAt = new Date(order.createdAt).getTime()
    newestCreatedAt = Math.max(newestCreatedAt, createdAt)
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
    if (!known) {
      // An order created after the last block this worker saw: a block mined since then changes
      // the tip, and that change asks for a full look at every fresh order. Its first look is
      // one mempool call instead of two (issue 18: a payment made right after checkout).
      if (createdAt > tipChangedAt + CLOCK_MARGIN_MS && isFresh(entry, now, watchSettings))
        entry.fullLookDue = false
      // Older orders found at start are spread over their interval instead of all at once;
      // an open order past its deadline waits for a decision (paid in time, or expired), so it
      // is looked at now (the budget still paces the calls).
      const awaitsDecision = isOpen(entry.status) && deadlineOf(entry, watchSettings) <= now
      if (!isFresh(entry, now, watchSettings) && !awaitsDecision)
        entry.nextCheck = now + Math.random() * intervalFor(entry, now, watchSettings)
      watch.set(order.id, entry)
      byAddress.set(entry.address, entry)
      const early = unmatched.get(entry.address)
      if (early) {
        unmatched.delete(entry.address)
        pushedQueue.push({
          w: entry,
          txid: early.txid,
          hex: verifiedHex({ txid: early.txid, addresses: [], hex: early.hex }),
          at: early.at,
        })
        askPushWork()
      }
    }
  }

  function forget(id: string) {
    const w = watch.get(id)
    watch.delete(id)
    failing.delete(id)
    if (w) unreadAddresses.delete(w.address)
    if (w && byAddress.get(w.address) === w) byAddress.delete(w.address)
  }

  /**
   * Pushed transactions paying watched orders, judged as a mempool look would judge them (their
   * raw hex fetched for exact satoshis), except orders a look is asking about right now: they
   * wait for it.
   */
  async function judgePushed() {
    if (pushedQueue.length === 0) return
    const ready = pushedQueue.filter(({ w }) => !inLook.has(w) && watch.get(w.id) === w)
    pushedQueue = pushedQueue.filter(({ w }) => inLook.has(w) && watch.get(w.id) === w)
    for (const { w, txid, hex, at } of ready) {
      const due = w.nextCheck
      await judge(
        { scope: 'unconfirmed', orders: [w] },
        new Map([[w.address, [{ txid, height: null }]]]),
        at,
        hex ? new Map([[txid, hex]]) : undefined,
      )
      // A push is no look: the order's next look (a full one, after a block) stays when it was,
      // unless judging it failed (it then waits for its retry).
      if (!failing.has(w.id)) w.nextCheck = Math.min(w.nextCheck, due)
    }
  }

  function onPushedTransaction(tx: PushedTransaction) {
    lastPushAt = clock()
    let matched = false
    for (const address of tx.addresses) {
      const w = byAddress.get(address)
      if (w) {
        if (!pushedQueue.some((p) => p.w === w && p.txid === tx.txid))
          pushedQueue.push({ w, txid: tx.txid, hex: verifiedHex(tx), at: clock() })
        matched = true
        continue
      }
      const now = clock()
      unmatched.delete(address)
      // Its hex is kept only for an upcoming address (and checked once its order turns up): the
      // stream carries the whole mempool, and 50,000 data-carrying transactions are gigabytes.
      const expected = upcoming.has(address)
      unmatched.set(address, { txid: tx.txid, hex: expected ? tx.hex : undefined, at: now })
      for (const [a, seen] of unmatched) {
        if (seen.at >= now - UNMATCHED_PUSH_MS && unmatched.size <= UNMATCHED_PUSH_MAX) break
        unmatched.delete(a)
      }
      if (expected) {
        readOrdersNow = true
        matched = true
      }
    }
    if (matched) askPushWork()
  }

  /**
   * Beside the loop: new orders read when a push pays an upcoming address, and pushed payments
   * judged, without waiting for the loop's next step (it may be waiting for a chain request or
   * reading thousands of orders). Only while this worker runs passes (holds the lease).
   */
  function askPushWork() {
    if (stopped || standingBy || passes === 0) return
    if (pushWork) {
      pushWorkAgain = true
      return
    }
    pushWork = runInWriterScope(async () => {
      do {
        pushWorkAgain = false
        if (readOrdersNow) {
          readOrdersNow = false
          await refreshWatchList(clock(), { newOnly: true })
        }
        await judgePushed()
      } while (pushWorkAgain && !stopped)
    })
      .catch((error: unknown) => {
        // The loop judges what is left at its next step.
        logger.warn({ err: error }, 'judging a pushed payment failed; the next look retries it')
      })
      .finally(() => {
        pushWork = undefined
      })
  }

  /** The next addresses checkout will hand out, while the push stream is up. */
  async function readUpcoming() {
    if (clock() - lastPushAt > PUSH_RECENT_MS) {
      upcoming.clear()
      return
    }
    // The counter moves only when checkout stores an order: unchanged while no new one is seen.
    if (upcoming.size > 0 && upcomingAsOf === newestCreatedAt) return
    upcomingAsOf = newestCreatedAt
    const found = await payload.find({
      collection: slugs.counters,
      where: { name: { equals: ADDRESS_INDEX_COUNTER } },
      select: { value: true },
      depth: 0,
      limit: 1,
      pagination: false,
    })
    // The next order takes the counter's value as its index (checkout adds one, takes one less).
    const next = Number((found.docs[0] as { value?: number } | undefined)?.value ?? 0)
    for (const [address, index] of upcoming) if (index < next) upcoming.delete(address)
    const have = new Set(upcoming.values())
    for (let index = next; index < next + UPCOMING_ADDRESSES; index += 1)
      if (!have.has(index))
        upcoming.set(
          deriveOrderAddress({ xpub: settings.bsvXpub, network: settings.bsvNetwork, index }),
          index,
        )
  }

  function onPushedBlock(height: number) {
    lastPushAt = clock()
    if (height === lastTip) return
    tipWanted = true // the next step of the loop asks for the tip
    wake()
  }

  /** Now, not after the pass's sleep or the wait between passes (for a block). */
  function wake() {
    if (wakePass) {
      wakePass()
      return
    }
    if (!running && !stopped && timer) {
      clearTimeout(timer)
      timer = undefined
      passNow()
    }
  }

  /**
   * Hands the watched orders to `each` one page at a time, so a reload of many thousands of
   * orders never holds them all in memory at once.
   */
  async function forEachWatchedPage(
    where: ReturnType<typeof watchedOrdersWhere>,
    each: (orders: Order[]) => Promise<void>,
  ) {
    for (let page = 1; ; page += 1) {
      const found = await payload.find({
        collection: slugs.orders,
        where,
        select: WATCH_FIELDS,
        depth: 0,
        limit: WATCH_PAGE_SIZE,
        page,
        sort: 'createdAt',
      })
      await each(found.docs as Order[])
      if (!found.hasNextPage) return
    }
  }

  async function refreshWatchList(now: number, { newOnly = false } = {}) {
    const full = !newOnly && now - lastFullReload >= FULL_RELOAD_MS
    const where = full
      ? watchedOrdersWhere(now, settings)
      : newWatchedOrdersWhere(now, newestCreatedAt - NEW_ORDER_OVERLAP_MS, settings)
    const seen = new Set<string>()
    await forEachWatchedPage(where, async (orders) => {
      // Orders new to this worker that still wait for payment get their "order created" e-mail.
      const unseen = orders.filter(
        (o) => !watch.has(o.id) && isOpen(o.status) && new Date(o.gatewayExpiresAt).getTime() > now,
      )
      for (const order of orders) {
        if (full) seen.add(order.id)
        track(order, now)
      }
      if (unseen.length > 0)
        await queueOrderCreatedEmails({
          payload,
          orders: unseen,
          perAddressPerHour: settings.emailsPerAddressPerHour,
        })
    })
    if (full) {
      // An order read meanwhile beside the loop (askPushWork) may be younger than this reload.
      for (const [id, w] of watch)
        if (!seen.has(id) && w.createdAt < now - NEW_ORDER_OVERLAP_MS) forget(id)
      lastFullReload = now
    }
    await readUpcoming()
  }

  /** Orders the owner asked to re-check: watched now with a full look, however old. */
  async function pickUpRechecks(now: number) {
    const asked = await payload.find({
      collection: slugs.orders,
      where: RECHECK_WHERE,
      select: WATCH_FIELDS,
      depth: 0,
      limit: WATCH_PAGE_SIZE,
      pagination: false,
    })
    for (const order of asked.docs as Order[]) {
      track(order, now)
      const w = watch.get(order.id)!
      if (w.recheck) continue
      w.recheck = true
      w.fullLookDue = true
      w.recorded = undefined
      w.nextCheck = now
    }
  }

  async function clearRecheck(w: Watched) {
    if (!w.recheck) return
    w.recheck = false
    await payload.update({
      collection: slugs.orders,
      id: w.id,
      data: { recheckRequestedAt: null },
      depth: 0,
    })
    logger.info({ orderId: w.id }, "order re-checked at the owner's request")
  }

  const crashBeforeFulfil =
    settings.workerCrashAt === 'before-fulfil'
      ? () => {
          logger.warn('test hook: crashing before fulfilment')
          process.exit(86)
        }
      : undefined

  /** An order left PAID and unfulfilled (made PAID before the Orders seam delivered, or by hand). */
  async function fulfil(order: Order) {
    crashBeforeFulfil?.()
    return fulfilOrder({
      payload,
      order,
      store: fileStoreOf(settings),
      tokenTtlHours: settings.downloadTokenTtlHours,
      tokenMaxUses: settings.downloadMaxUses,
      logger,
    })
  }

  /** Paid but not fulfilled (a crash between the two, or a retried ERROR_FULFILLMENT). */
  async function fulfilPending() {
    const pending = await payload.find({
      collection: slugs.orders,
      where: { and: [{ status: { equals: 'PAID' } }, { fulfilledAt: { exists: false } }] },
      depth: 0,
      limit: 100,
      pagination: false,
    })
    for (const order of pending.docs as Order[]) {
      if ((failing.get(order.id)?.retryAt ?? 0) > clock()) continue
      try {
        await fulfil(order)
        await processed(order.id, Boolean(order.attentionSince))
      } catch (error) {
        await processingFailed(order.id, 'deliver', error)
      }
    }
  }

  /**
   * One order's judgement or delivery threw: logged with the reason, shown to the owner as
   * needing attention, and tried again on its own after a delay that grows with each failure
   * in a row. Never throws: the pass goes on with the other orders.
   */
  async function processingFailed(
    orderId: string,
    what: 'settle' | 'deliver',
    error: unknown,
  ): Promise<number> {
    const failures = (failing.get(orderId)?.failures ?? 0) + 1
    const retryAt = clock() + retryDelayMs(failures, settings.workerSlowPollMs)
    failing.set(orderId, { failures, retryAt })
    logger.error(
      { orderId, err: error, failures, retryAt: new Date(retryAt).toISOString() },
      `could not ${what} an order; it is tried again on its own`,
    )
    try {
      await markOrderAttention({
        payload,
        orderId,
        reason: `Could not ${what} this order: ${failureReason(error)}`,
        at: new Date(clock()),
      })
      const w = watch.get(orderId)
      if (w) w.attention = true
    } catch (markError) {
      logger.error(
        { orderId, err: markError },
        'could not show the owner an order needing attention',
      )
    }
    return retryAt
  }

  /** The order was processed: its failures are forgotten and the owner's notice goes. */
  async function processed(orderId: string, attention: boolean) {
    failing.delete(orderId)
    if (!attention) return
    await clearOrderAttention({ payload, orderId })
    const w = watch.get(orderId)
    if (w) w.attention = false
    logger.info({ orderId }, 'order processed again; its notice to the owner is cleared')
  }

  async function look(batch: Batch) {
    for (const w of batch.orders) inLook.set(w, (inLook.get(w) ?? 0) + 1)
    try {
      await lookAt(batch)
    } finally {
      for (const w of batch.orders) {
        const n = (inLook.get(w) ?? 1) - 1
        if (n > 0) inLook.set(w, n)
        else inLook.delete(w)
      }
      // What was pushed for these orders meanwhile waited for this look.
      if (pushedQueue.length > 0) askPushWork()
    }
  }

  async function lookAt(batch: Batch) {
    // The time the chain is asked, not the time its answer is recorded: payments it finds are
    // judged on time or late by this moment (and by their blocks' times).
    const startedAt = clock()
    const addresses = batch.orders.map((w) => w.address)
    // Older orders only, while buyers wait for theirs: leave them room in the request budget.
    const first = (w: Watched) => comesFirst(w, startedAt, watchSettings)
    const buyersWaiting = () => {
      for (const w of watch.values()) if (first(w) && !w.funded) return true
      return false
    }
    const options = { background: !batch.orders.some(first) && buyersWaiting() }
    // A full look is one call (WhatsOnChain's history/all: mempool and blocks together).
    const histories = await chain.getAddressHistories(
      addresses,
      batch.scope === 'all' ? 'all' : 'unconfirmed',
      options,
    )
    // An address the source could not read says nothing of its payments (it is not an empty
    // history): its order waits for its own retry, and the rest of the batch is judged.
    const unread = batch.orders.filter((w) => !histories.has(w.address))
    for (const w of unread) await addressUnread(w)
    const read =
      unread.length === 0
        ? batch
        : { ...batch, orders: batch.orders.filter((w) => histories.has(w.address)) }
    await judge(read, histories, startedAt)
  }

  /**
   * The chain source could not read an order's address (WhatsOnChain's error for that one
   * address): it backs off alone, and after a few looks in a row its order is shown to the
   * owner as needing attention; the notice goes at the order's next successful judgement.
   */
  async function addressUnread(w: Watched) {
    const failures = (unreadAddresses.get(w.address) ?? 0) + 1
    unreadAddresses.set(w.address, failures)
    const reason =
      chain.stats?.().failingAddresses.find((f) => f.address === w.address)?.reason ??
      'no answer for this address'
    w.nextCheck = clock() + retryDelayMs(failures, settings.workerFastPollMs)
    logger.warn(
      { orderId: w.id, failures, reason },
      "the chain source could not read this order's address; it is asked again on its own",
    )
    if (failures < ADDRESS_FAILURES_BEFORE_NOTICE || w.attention) return
    try {
      await markOrderAttention({
        payload,
        orderId: w.id,
        reason: `The chain source could not read this order's payment address (${failures} looks in a row): ${reason}`,
        at: new Date(clock()),
      })
      w.attention = true
    } catch (error) {
      logger.error(
        { orderId: w.id, err: error },
        'could not show the owner an order needing attention',
      )
    }
  }

  /** What a look found, recorded and settled order by order. */
  async function judge(
    batch: Batch,
    histories: ReadonlyMap<string, readonly AddressTransaction[]>,
    startedAt: number,
    /** Raw transactions already in hand (the push stream's), checked against their ids. */
    knownHex?: ReadonlyMap<string, string>,
  ) {
    for (const w of batch.orders) {
      if (lease?.lost()) throw new LeaseLostError()
      const before = judging.get(w.id)
      const mine = (before ?? Promise.resolve())
        .catch(() => {})
        .then(() => judgeOrRetryLater(w, batch, histories, startedAt, knownHex))
      const settled = mine.then(
        () => {},
        () => {},
      )
      judging.set(w.id, settled)
      try {
        await mine
      } finally {
        if (judging.get(w.id) === settled) judging.delete(w.id)
      }
    }
  }

  /**
   * One order of a look, judged on its own: when its judgement throws, it alone waits for its
   * retry (a full look, from the database) and the look goes on with the next order. A lost
   * lease still ends the pass.
   */
  async function judgeOrRetryLater(
    w: Watched,
    batch: Batch,
    histories: ReadonlyMap<string, readonly AddressTransaction[]>,
    startedAt: number,
    knownHex: ReadonlyMap<string, string> | undefined,
  ) {
    try {
      await judgeOne(w, batch, histories, startedAt, knownHex)
    } catch (error) {
      if (error instanceof LeaseLostError) throw error
      const retryAt = await processingFailed(w.id, 'settle', error)
      // What this look found may not be recorded: the retry asks the chain for everything again.
      w.fullLookDue = true
      w.recorded = undefined
      w.nextCheck = retryAt
    }
  }

  /** One order of a look: what the chain says of its address, recorded and settled. */
  async function judgeOne(
    w: Watched,
    batch: Batch,
    histories: ReadonlyMap<string, readonly AddressTransaction[]>,
    startedAt: number,
    knownHex: ReadonlyMap<string, string> | undefined,
  ) {
    const now = clock()
    const transactions = histories.get(w.address) ?? []
    unreadAddresses.delete(w.address)
    const atExpiry = isOpen(w.status) && startedAt >= deadlineOf(w, watchSettings)
    w.mempoolOnly = batch.scope === 'unconfirmed'
    if (batch.scope === 'all') w.fullLookDue = false
    // Nothing arrived, nothing to confirm, not expiring: no need to touch the database.
    const key = historyKey(transactions)
    const unchanged = isOpen(w.status)
      ? transactions.length === 0 && !w.funded
      : batch.scope === 'all' && key === w.recorded
    const retrying = failing.has(w.id) || Boolean(w.attention)
    if (unchanged && !(atExpiry && batch.scope === 'all') && !w.recheck && !retrying) {
      w.nextCheck = now + intervalFor(w, now, watchSettings)
      return
    }
    const order = (await payload.findByID({
      collection: slugs.orders,
      id: w.id,
      depth: 0,
      disableErrors: true,
    })) as Order | null
    if (!order) {
      forget(w.id)
      return
    }
    const recheck = w.recheck
    const payments = await recordPayments({
      payload,
      order,
      transactions,
      getTransactionHex: async (txid) => knownHex?.get(txid) ?? chain.getTransactionHex(txid),
      getBlockTime: (height) => chain.getBlockTime(height),
      getTransactionStatus: (txid) => chain.getTransactionStatus(txid),
      getSpentBy: chain.getSpentBy ? (outpoints) => chain.getSpentBy!(outpoints) : undefined,
      fullLook: batch.scope === 'all',
      checkStartedAt: new Date(startedAt),
      graceMs,
      missingSpanMs: settings.paymentMissingMinutes * 60_000,
      logger,
    })
    if (settings.workerCrashAt === 'after-record' && payments.length > 0) {
      logger.warn({ orderId: order.id }, 'test hook: crashing after recording payments')
      process.exit(86)
    }
    const settled = await settleOrder({
      payload,
      order,
      payments,
      tipHeight: lastTip,
      settings: { confirmationsRequired: settings.confirmationsRequired, graceMs },
      logger,
      now: new Date(startedAt),
      beforeFulfil: crashBeforeFulfil,
    })
    if (settled.status === 'PAID' && !settled.fulfilledAt) await fulfil(settled)
    await processed(w.id, Boolean(w.attention || settled.attentionSince))
    if (batch.scope === 'all') w.recorded = key
    w.status = settled.status
    w.funded = isFunded(settled)
    w.nextCheck = clock() + intervalFor(w, clock(), watchSettings)
    if (recheck && batch.scope === 'all') await clearRecheck(w)
    // Past the late watch (an order found long expired): no longer looked at by itself.
    if (
      !isOpen(w.status) &&
      !w.recheck &&
      deadlineOf(w, watchSettings) < clock() - lateWatchMs(settings)
    )
      forget(w.id)
  }

  /** How long a pass waiting for its older look may sleep: until new orders or a fresh one is due. */
  function untilNextLook(now: number, refreshedAt: number, inFlight: ReadonlySet<Watched>) {
    let wait = refreshedAt + NEW_ORDERS_EVERY_MS - now
    for (const w of watch.values())
      if (w.nextCheck < now + wait && !inFlight.has(w) && comesFirst(w, now, watchSettings))
        wait = w.nextCheck - now
    return Math.max(10, wait)
  }

  /**
   * Reads the chain's tip every `tipPollMs` (at a pass's start and between its calls): a new
   * block asks for a full look at what may have left the mempool for it.
   */
  async function checkTip(now: number) {
    if (!tipWanted && lastTip >= 0 && now - lastTipCheck < tipPollMs) return
    // Cleared before asking: a block pushed while the answer is on its way asks again.
    tipWanted = false
    const tip = await chain.getTipHeight()
    lastTipCheck = now
    if (tip !== lastTip) tipChangedAt = now
    if (lastTip >= 0 && tip !== lastTip) {
      for (const w of watch.values()) {
        // Whatever left the mempool for this block is seen by a full look. Orders still
        // waiting from an earlier block keep their place: blocks coming faster than the
        // budget serves them must not send the same first orders to the front every time.
        if ((w.funded || w.mempoolOnly || isFresh(w, now, watchSettings)) && !w.fullLookDue) {
          w.fullLookDue = true
          w.nextCheck = Math.min(w.nextCheck, now)
        }
      }
    }
    lastTip = tip
  }

  /**
   * A pass: the looks at the chain, then the jobs queue. The jobs run whatever the looks did
   * (a failing chain source, a failing read of the watch list), so mail and webhooks never wait
   * for the chain; the pass still fails afterwards, and the next one waits its backoff. A lost
   * lease ends the pass before the jobs: another worker runs them.
   */
  async function pass() {
    let looksFailed: { error: unknown } | undefined
    try {
      await looks()
      if (watch.size > 0) lastLookOkAt = new Date(clock())
    } catch (error) {
      if (error instanceof LeaseLostError) throw error
      looksFailed = { error }
    }
    if (lease?.lost()) throw new LeaseLostError()
    // The chain source's health for the owner's dashboard, and the alert once no look succeeds
    // (after failed passes too, or no alert could ever fire).
    const now = new Date(clock())
    await recordChainHealth({ payload, stats: chain.stats?.(), lastLookOkAt, now })
    await checkChainAlert({ payload, env: settings, now, lastLookOkAt, watching: watch.size > 0 })
    // The jobs queue: e-mails (unless turned off on purpose: they wait in the outbox, never
    // marked sent) and webhooks, with Payload's retries. Only the lease holder gets here.
    await runDueJobs(payload, { email: settings.emailDelivery !== 'off' })
    if (looksFailed) throw looksFailed.error
  }

  /** What a pass asks the chain and records: new orders, re-checks, deliveries, the looks. */
  async function looks() {
    const now = clock()
    passes += 1
    await refreshWatchList(now)
    await pickUpRechecks(now)
    await fulfilPending()

    if (watch.size > 0) {
      await checkTip(now)
      // One call at a time, planned afresh before each: an order created meanwhile, or a fresh
      // one due again, goes before the rest of the pass's older orders (issue 18: a payment
      // made right after checkout waited for the whole pass, then for the next one's start).
      // A look at older orders goes on beside the loop, one at a time: while buyers wait it
      // waits for a request the budget leaves them, and a buyer's payment looked for meanwhile
      // must not wait behind it (issue 18: detection at 10,000 watched orders).
      let budget = callsPerPass
      let looked = false
      let older: { done: Promise<void>; orders: ReadonlySet<Watched> } | undefined
      let olderFailed: { error: unknown } | undefined
      try {
        let refreshedAt = clock()
        const refresh = async () => {
          await refreshWatchList(clock())
          refreshedAt = clock()
        }
        for (let call = 0; !olderFailed; call += 1) {
          if (call > 0) {
            // A pass waiting for an older look may outlast a block.
            await checkTip(clock())
            if (!older || clock() - refreshedAt >= NEW_ORDERS_EVERY_MS) await refresh()
          }
          await judgePushed()
          const planNow = () => {
            const inFlight = older?.orders
            return planBatches({
              watched: inFlight
                ? [...watch.values()].filter((w) => !inFlight.has(w))
                : watch.values(),
              now: clock(),
              pass: passes,
              // Past the budget, orders that come first are still looked at while an older
              // look is under way (they would otherwise wait for it).
              callsPerPass: older ? Math.max(budget, 2) : budget,
              settings: watchSettings,
              olderShare: call === 0 && passes % OLD_SHARE_EVERY_PASSES === 0,
            })
          }
          const comesFirstNow = (w: Watched) => comesFirst(w, clock(), watchSettings)
          let { plan, backlog: more } = planNow()
          if (plan[0]?.orders.some(comesFirstNow) && chain.waitForRoom) {
            // Fresh orders are asked about once the request can go, with new orders read just
            // before: planned first, a call waited up to a second for its request without the
            // order placed meanwhile, which then waited for the next (issue 18, detection).
            if (await chain.waitForRoom()) {
              await refresh()
              ;({ plan, backlog: more } = planNow())
            }
          }
          backlog = more || plan.length > 1
          const batch = plan[0]
          if (batch?.orders.some(comesFirstNow)) {
            await look(batch)
            looked = true
            budget -= batchCost(batch)
            continue
          }
          if (batch && !older && batchCost(batch) <= budget) {
            const done = look(batch).then(
              () => {
                older = undefined
              },
              (error: unknown) => {
                older = undefined
                olderFailed = { error }
              },
            )
            older = { done, orders: new Set(batch.orders) }
            looked = true
            budget -= batchCost(batch)
            continue
          }
          if (!older) break
          // Until the older look ends, it is time to look for new and due orders again, or the
          // push stream says something.
          const woken = new Promise<void>((resolve) => {
            wakePass = resolve
          })
          await Promise.race([
            older.done,
            woken,
            sleep(untilNextLook(clock(), refreshedAt, older.orders)),
          ])
          wakePass = undefined
        }
      } finally {
        await older?.done
      }
      await judgePushed()
      if (olderFailed) throw olderFailed.error
      if (looked) await countChainLook({ payload })
    } else {
      backlog = false
    }
  }

  /** Standing by while another worker holds the lease: what it knew may be stale on takeover. */
  let standingBy = false
  /** Jobs a dead holder left marked running were put back since this worker took the lease. */
  let orphansReleased = false

  async function runOnce() {
    try {
      if (lease && !(await lease.hold())) {
        standingBy = true
        onHeartbeat?.('standby')
        return
      }
      if (standingBy) {
        standingBy = false
        orphansReleased = false
        watch.clear()
        byAddress.clear()
        pushedQueue = []
        lastFullReload = 0
        lastTip = -1
        tipChangedAt = Number.POSITIVE_INFINITY
      }
      if (!orphansReleased) {
        const released = await runInWriterScope(() => releaseOrphanedJobs(payload))
        if (released > 0)
          logger.warn({ released }, 'jobs left running by a stopped worker requeued')
        orphansReleased = true
      }
      await runInWriterScope(pass)
      onHeartbeat?.('active')
      if (failures > 0) logger.info({ failures }, 'payment worker recovered')
      failures = 0
    } catch (error) {
      failures += 1
      logger.error({ err: error, failures }, 'payment worker pass failed; retrying with backoff')
    } finally {
      const waiters = passWaiters
      passWaiters = []
      for (const resolve of waiters) resolve()
    }
  }

  // More is due than one pass may ask: go on at once (the client still spaces the calls).
  const delay = () =>
    standingBy && lease
      ? lease.renewEveryMs
      : failures === 0
        ? backlog || pushedQueue.length > 0
          ? 0
          : settings.workerFastPollMs
        : Math.min(MAX_BACKOFF_MS, settings.workerFastPollMs * 2 ** Math.min(failures, 10))

  const schedule = () => {
    if (stopped) return
    timer = setTimeout(passNow, delay())
  }

  /** A pass now, and the next one scheduled when it ends. */
  function passNow() {
    running = runOnce().finally(() => {
      running = undefined
      schedule()
    })
  }

  if (autoStart) passNow()

  return {
    runOnce: () => (running ? running.then(() => runOnce()) : runOnce()),
    pushed: { transaction: onPushedTransaction, block: onPushedBlock },
    nextPass: () => new Promise<void>((resolve) => passWaiters.push(resolve)),
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
      await lease?.release()
    },
  }
}
