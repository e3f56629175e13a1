import type { Batch } from '../watch/plan'
import type { Watched } from '../watch/watched'
import { comesFirst, retryDelayMs } from '../watch/watched'
import { showOwner } from './attention'
import { judge } from './judge'
import type { WorkerContext } from './state'

/**
 * A look: one batch of addresses asked of the chain source in one call, and what it says of
 * each judged. Pushes for the batch's orders wait until it is over.
 */

/** Looks in a row an address goes unread before its order is shown to the owner. */
const ADDRESS_FAILURES_BEFORE_NOTICE = 3

export async function look(ctx: WorkerContext, batch: Batch) {
  const { inLook } = ctx
  for (const w of batch.orders) inLook.set(w, (inLook.get(w) ?? 0) + 1)
  try {
    await lookAt(ctx, batch)
  } finally {
    for (const w of batch.orders) {
      const n = (inLook.get(w) ?? 1) - 1
      if (n > 0) inLook.set(w, n)
      else inLook.delete(w)
    }
    // What was pushed for these orders meanwhile waited for this look.
    if (ctx.push.queue.length > 0) ctx.askPushWork()
  }
}

async function lookAt(ctx: WorkerContext, batch: Batch) {
  // The time the chain is asked, not the time its answer is recorded: payments it finds are
  // judged on time or late by this moment (and by their blocks' times).
  const startedAt = ctx.clock()
  const addresses = batch.orders.map((w) => w.address)
  // Older orders only, while buyers wait for theirs: leave them room in the request budget.
  const first = (w: Watched) => comesFirst(w, startedAt, ctx.watchSettings)
  const buyersWaiting = () => {
    for (const w of ctx.watch.values()) if (first(w) && !w.funded) return true
    return false
  }
  const options = { background: !batch.orders.some(first) && buyersWaiting() }
  // A full look is one call (WhatsOnChain's history/all: mempool and blocks together).
  const histories = await ctx.chain.getAddressHistories(
    addresses,
    batch.scope === 'all' ? 'all' : 'unconfirmed',
    options,
  )
  // An address the source could not read says nothing of its payments (it is not an empty
  // history): its order waits for its own retry, and the rest of the batch is judged.
  const unread = batch.orders.filter((w) => !histories.has(w.address))
  if (unread.length > 0) {
    // The client keeps why each address failed; read once for the whole batch.
    const failing = ctx.chain.stats?.().failingAddresses ?? []
    const reasons = new Map(failing.map((f) => [f.address, f.reason]))
    for (const w of unread)
      await addressUnread(ctx, w, reasons.get(w.address) ?? 'no answer for this address')
  }
  const read =
    unread.length === 0
      ? batch
      : { ...batch, orders: batch.orders.filter((w) => histories.has(w.address)) }
  await judge(ctx, read, histories, startedAt)
}

/**
 * The chain source could not read an order's address (WhatsOnChain's error for that one
 * address): it backs off alone, and after a few looks in a row its order is shown to the
 * owner as needing attention; the notice goes at the order's next successful judgement.
 */
async function addressUnread(ctx: WorkerContext, w: Watched, reason: string) {
  const failures = (ctx.unreadAddresses.get(w.address) ?? 0) + 1
  ctx.unreadAddresses.set(w.address, failures)
  w.nextCheck = ctx.clock() + retryDelayMs(failures, ctx.settings.workerFastPollMs)
  ctx.logger.warn(
    { orderId: w.id, failures, reason },
    "the chain source could not read this order's address; it is asked again on its own",
  )
  if (failures < ADDRESS_FAILURES_BEFORE_NOTICE || w.attention) return
  const reasonShown = `The chain source could not read this order's payment address (${failures} looks in a row): ${reason}`
  if (await showOwner(ctx, w.id, reasonShown)) w.attention = true
}
