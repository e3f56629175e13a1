import type { Order, Payment } from '@shop/cms/engine'
import { inOneTransaction, settlesInGroups, slugs } from '@shop/cms/engine'

import { transactionsToFetch } from '../process-order'
import type { Finding } from './judge'
import { afterSettled, askChainFirstFor, judgedWithoutDatabase, recordAndSettle } from './judge'
import { askArcBeforeProofs } from './follow'
import { askJobs } from './jobs'
import type { WorkerContext } from './state'
import { LeaseLostError } from './state'

/**
 * The orders of one look that are settled together: those whose record needs nothing from the chain
 * but the raw transactions of the payments it found (fetched first, outside any transaction), as
 * when a rush pays, a block confirms its payments, or a crowd of orders passes its deadline. Their
 * orders and payments are read in two queries, and on SQL engines (`settlesInGroups`) each group of
 * `GROUP` is recorded and settled in one transaction (the status changes, their history, the
 * deliveries and copies they cause), so a rush costs a few commits, not several per order. A group
 * whose transaction fails is left to be judged order by order, where one failing order waits for
 * its own retry.
 */

/** Orders settled in one transaction: short enough not to hold a checkout back for long. */
export const GROUP = 25

/** The ids of the findings judged here; the others are judged one by one. */
export async function settleTogether(
  ctx: WorkerContext,
  findings: readonly Finding[],
): Promise<Set<string>> {
  const done = new Set<string>()
  const toRecord: Finding[] = []
  for (const finding of findings) {
    const { w } = finding
    if (judgedWithoutDatabase(ctx, finding)) done.add(w.id)
    else if (!ctx.failing.has(w.id) && !w.attention && !w.recheck) toRecord.push(finding)
  }
  if (toRecord.length < 2 || !settlesInGroups(ctx.payload)) return done
  const { orders, payments } = await readTogether(ctx, toRecord)
  const ready = toRecord.flatMap((f) => {
    const order = orders.get(f.w.id)
    if (!order || order.attentionSince) return []
    const fullLook = f.batch.scope === 'all'
    const toFetch = transactionsToFetch(payments.get(f.w.id) ?? [], f.transactions, fullLook)
    return toFetch ? [{ finding: f, toFetch }] : []
  })
  let undelivered = false
  for (let i = 0; i < ready.length; i += GROUP) {
    // Renewed between groups, outside their transactions: back-to-back groups would otherwise
    // keep the lease's own renewal from the database until the lease ran out.
    if (ctx.lease && !(await ctx.lease.hold())) throw new LeaseLostError()
    const group = await withChainAnswers(ctx, ready.slice(i, i + GROUP), orders, payments)
    if (group.length === 0) continue
    const settled = await settleGroup(ctx, group, orders, payments)
    if (!settled) continue
    for (const [index, finding] of group.entries()) {
      if (await afterSettled(ctx, finding, settled[index]!, undefined)) undelivered = true
      done.add(finding.w.id)
    }
  }
  if (undelivered) void askJobs(ctx)
  return done
}

/**
 * The group's findings with everything their recording asks the chain in hand (the raw
 * transactions of new payments, the times of their blocks, the merkle proofs of those in a
 * block: askChainFirstFor), asked before the group's transaction: a group never holds the
 * database's writer while it waits for the chain. A finding the chain does not answer for is
 * left to be judged on its own, which asks again and retries it.
 */
async function withChainAnswers(
  ctx: WorkerContext,
  group: readonly { finding: Finding; toFetch: readonly string[] }[],
  orders: ReadonlyMap<string, Order>,
  payments: ReadonlyMap<string, Payment[]>,
): Promise<Finding[]> {
  const ready: Finding[] = []
  // ARC's paths for the payments a block confirms, asked together, before the proofs read them.
  await askArcBeforeProofs(
    ctx,
    group.map((g) => g.finding),
  )
  // One after the other, as a look's calls go: the client spaces them within its budget.
  for (const { finding } of group) {
    try {
      const order = orders.get(finding.w.id)!
      const answers = await askChainFirstFor(ctx, finding, order, payments.get(finding.w.id) ?? [])
      ready.push({ ...finding, answers })
    } catch (error) {
      ctx.logger.warn(
        { err: error, orderId: finding.w.id },
        'could not fetch a payment found for this order; it is judged on its own',
      )
    }
  }
  return ready
}

/** The orders and their payments, read at once. */
async function readTogether(ctx: WorkerContext, findings: readonly Finding[]) {
  const ids = findings.map((f) => f.w.id)
  const [orderDocs, paymentDocs] = await Promise.all([
    ctx.payload.find({
      collection: slugs.orders,
      where: { id: { in: ids } },
      depth: 0,
      limit: 0,
      pagination: false,
    }),
    ctx.payload.find({
      collection: slugs.payments,
      where: { order: { in: ids } },
      depth: 0,
      limit: 0,
      pagination: false,
      sort: 'seenAt',
    }),
  ])
  const orders = new Map((orderDocs.docs as Order[]).map((o) => [o.id, o]))
  const payments = new Map<string, Payment[]>()
  for (const payment of paymentDocs.docs as Payment[]) {
    const orderId = typeof payment.order === 'object' ? payment.order.id : payment.order
    payments.set(orderId, [...(payments.get(orderId) ?? []), payment])
  }
  return { orders, payments }
}

/** One group in one transaction: the orders as settled, or null when it failed (rolled back). */
async function settleGroup(
  ctx: WorkerContext,
  group: readonly Finding[],
  orders: ReadonlyMap<string, Order>,
  payments: ReadonlyMap<string, Payment[]>,
): Promise<Order[] | null> {
  try {
    return await inOneTransaction(ctx.payload, async (req) => {
      const settled: Order[] = []
      for (const finding of group) {
        // The fencing check: a worker that lost the lease writes nothing more.
        if (ctx.lease?.lost()) throw new LeaseLostError()
        const order = orders.get(finding.w.id)!
        const recorded = payments.get(finding.w.id) ?? []
        settled.push(await recordAndSettle(ctx, finding, order, { recorded, req }))
      }
      return settled
    })
  } catch (error) {
    if (error instanceof LeaseLostError) throw error
    ctx.logger.warn(
      { err: error, orders: group.length },
      'could not settle a group of orders together; each is judged on its own',
    )
    return null
  }
}
