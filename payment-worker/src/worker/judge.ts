import type { AddressTransaction } from '@shop/chain'
import type { Order, Payment } from '@shop/cms/engine'
import type { PayloadRequest } from 'payload'
import { faultPoint, inOneTransaction, slugs } from '@shop/cms/engine'

import type { ChainAnswers, RecordPaymentsInput } from '../process-order'
import { askChainFirst, paymentsOf, recordPayments, settleOrder } from '../process-order'
import { lateWatchMs } from '../watch/interval'
import type { Batch } from '../watch/plan'
import type { Watched } from '../watch/watched'
import { askFullLook, deadlineOf, isOpen, lookEnded, nextCheckAfterLook } from '../watch/watched'
import { processed, processingFailed } from './attention'
import { streamTrusted } from './trust'
import { askJobs } from './jobs'
import { contradicts, followPayments, noteDisagreement } from './follow'
import { proveTransaction } from './proofs'
import type { WorkerContext } from './state'
import { LeaseLostError } from './state'
import { settleTogether } from './settle-together'
import { clearRecheck, forget, isFunded } from './watchList'

/**
 * Judging what the chain says of an order's address: its payments recorded, its status settled
 * (process-order.ts), the delivery a change to PAID queued run at once (jobs.ts), and when it is
 * looked at next. Each order is judged on its own: one that throws waits for its own retry while
 * the others go on.
 */

type Histories = ReadonlyMap<string, readonly AddressTransaction[]>

/** What one look (or one push) found for one order. */
export type Finding = {
  w: Watched
  batch: Batch
  transactions: readonly AddressTransaction[]
  /** When the chain was asked: payments are judged on time or late by this moment. */
  startedAt: number
  /** Raw transactions already in hand (the push stream's), checked against their ids. */
  knownHex: ReadonlyMap<string, string> | undefined
  /** What recording it asks the chain, asked already (askChainFirstFor). */
  answers?: ChainAnswers
}

const historyKey = (transactions: readonly AddressTransaction[]) =>
  transactions
    .map((t) => `${t.txid}@${t.height ?? ''}`)
    .sort()
    .join(',')

/**
 * What a look found, recorded and settled: the orders whose record needs nothing more from the
 * chain (a block confirming their payments, a deadline passing) together, a few transactions
 * for the whole look (settle-together.ts); the others order by order.
 */
export async function judge(
  ctx: WorkerContext,
  batch: Batch,
  histories: Histories,
  startedAt: number,
  knownHex?: ReadonlyMap<string, string>,
) {
  const findings = batch.orders.map((w) => ({
    w,
    batch,
    transactions: histories.get(w.address) ?? [],
    startedAt,
    knownHex,
  }))
  await judgeFindings(ctx, findings)
}

/**
 * Findings of one order each (a look's, or the pushes queued meanwhile, each with its own moment
 * and batch), judged together where they can be, the others one by one.
 */
export async function judgeFindings(ctx: WorkerContext, findings: readonly Finding[]) {
  const together = await oneJudgementAtATime(
    ctx,
    findings.map((f) => f.w.id),
    () => settleTogether(ctx, findings),
  )
  for (const finding of findings) {
    if (together.has(finding.w.id)) continue
    if (ctx.lease?.lost()) throw new LeaseLostError()
    await oneJudgementAtATime(ctx, [finding.w.id], () => judgeOrRetryLater(ctx, finding))
  }
}

/**
 * Judgements of one order run one after the other (a look's, and a push's beside it): `work`
 * starts once every judgement of these orders before it has ended.
 */
export async function oneJudgementAtATime<T>(
  ctx: WorkerContext,
  ids: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  const { judging } = ctx
  const before = Promise.all(
    ids.map((id) => (judging.get(id) ?? Promise.resolve()).catch(() => {})),
  )
  const mine = before.then(work)
  const settled = mine.then(
    () => {},
    () => {},
  )
  for (const id of ids) judging.set(id, settled)
  try {
    return await mine
  } finally {
    for (const id of ids) if (judging.get(id) === settled) judging.delete(id)
  }
}

/**
 * One order of a look, judged on its own: when its judgement throws, it alone waits for its
 * retry (a full look, from the database) and the look goes on with the next order. A lost
 * lease still ends the pass.
 */
async function judgeOrRetryLater(ctx: WorkerContext, finding: Finding) {
  const { w } = finding
  try {
    await judgeOne(ctx, finding)
  } catch (error) {
    if (error instanceof LeaseLostError) throw error
    const retryAt = await processingFailed(ctx, w.id, 'settle', error)
    // What this look found may not be recorded: the retry asks the chain for everything again.
    askFullLook(w, ctx.clock())
    w.recorded = undefined
    w.nextCheck = retryAt
  }
}

/**
 * What a look found for an order that needs no database: nothing arrived, nothing to confirm,
 * not expiring. Its next look is scheduled and true is returned; false when it must be recorded.
 */
export function judgedWithoutDatabase(ctx: WorkerContext, finding: Finding): boolean {
  const { w, batch, transactions, startedAt } = finding
  const { watchSettings } = ctx
  const now = ctx.clock()
  ctx.unreadAddresses.delete(w.address)
  const atExpiry = isOpen(w.status) && startedAt >= deadlineOf(w, watchSettings)
  lookEnded(w, batch.scope, startedAt)
  const unchanged = isOpen(w.status)
    ? transactions.length === 0 && !w.funded && !w.inDoubt
    : batch.scope === 'all' && historyKey(transactions) === w.recorded
  const retrying = ctx.failing.has(w.id) || Boolean(w.attention)
  if (!unchanged || (atExpiry && batch.scope === 'all') || w.recheck || retrying) return false
  looked(w, startedAt)
  w.nextCheck = nextCheckAfterLook(w, now, watchSettings, streamTrusted(ctx))
  return true
}

/** The last look that judged the order began at `startedAt` (or later). */
const looked = (w: Watched, startedAt: number) => {
  w.lookedAt = Math.max(w.lookedAt ?? startedAt, startedAt)
}

/**
 * What the chain shows now came after the last look that judged this order (its window of
 * doubt): that look's start, not this one's, says whether it may have come in time.
 */
export const notSeenAtOf = ({ w, startedAt }: Finding) =>
  Math.min(w.lookedAt ?? startedAt, startedAt)

/** One order of a look: what the chain says of its address, recorded and settled. */
async function judgeOne(ctx: WorkerContext, finding: Finding) {
  const { w } = finding
  if (judgedWithoutDatabase(ctx, finding)) return
  const order = (await ctx.payload.findByID({
    collection: slugs.orders,
    id: w.id,
    depth: 0,
    disableErrors: true,
  })) as Order | null
  if (!order) {
    forget(ctx, w.id)
    return
  }
  const recheck = w.recheck
  const settled = await recordAndSettleAtOnce(ctx, finding, order)
  const undelivered = await afterSettled(ctx, finding, settled, recheck)
  if (undelivered) void askJobs(ctx)
}

/**
 * The watch list brought up to date with an order as just settled: when it is looked at next,
 * and whether it leaves the list. True when it is PAID and waits for its delivery.
 */
export async function afterSettled(
  ctx: WorkerContext,
  finding: Finding,
  settled: Order,
  recheck: boolean | undefined,
): Promise<boolean> {
  const { w, batch, transactions, startedAt } = finding
  const { watchSettings } = ctx
  looked(w, startedAt)
  // Its delivery is a job the Orders seam queued with the change to PAID, run once the look is
  // recorded; the owner's notice of a delivery that failed is the job's to clear, once it
  // delivers.
  const undelivered = settled.status === 'PAID' && !settled.fulfilledAt
  await processed(ctx, w.id, !undelivered && Boolean(w.attention || settled.attentionSince))
  if (batch.scope === 'all') w.recorded = historyKey(transactions)
  w.status = settled.status
  w.funded = isFunded(settled)
  w.nextCheck = nextCheckAfterLook(w, ctx.clock(), watchSettings, streamTrusted(ctx))
  if (recheck && batch.scope === 'all') await clearRecheck(ctx, w)
  // Past the late watch (an order found long expired): no longer looked at by itself.
  if (
    !isOpen(w.status) &&
    !w.recheck &&
    deadlineOf(w, watchSettings) < ctx.clock() - lateWatchMs(ctx.settings)
  )
    forget(ctx, w.id)
  return undelivered
}

/** What recording a finding asks the chain, the raw transactions it carries answered first. */
function chainAnswersOf(ctx: WorkerContext, finding: Finding): ChainAnswers {
  const { chain, txSource } = ctx
  const { knownHex } = finding
  return {
    getTransactionHex: async (txid) => knownHex?.get(txid) ?? chain.getTransactionHex(txid),
    getBlockTime: (height) => chain.getBlockTime(height),
    getTransactionStatus: (txid) => chain.getTransactionStatus(txid),
    getSpentBy: chain.getSpentBy ? (outpoints) => chain.getSpentBy!(outpoints) : undefined,
    secondOpinion: txSource
      ? async (txid) => {
          const report = await txSource.getTransaction(txid).catch(() => null)
          if (report) ctx.follow.reports.set(txid, report)
          if (contradicts(report))
            noteDisagreement(ctx, {
              txid,
              whatsonchain: 'unknown to every lookup',
              arc: report!.sourceStatus ?? report!.state,
            })
          return report
        }
      : undefined,
  }
}

/**
 * The chain asked first, outside any transaction, for everything recording this finding will
 * ask, its proofs checked (proofs.ts).
 */
export async function askChainFirstFor(
  ctx: WorkerContext,
  finding: Finding,
  order: Order,
  payments: readonly Payment[],
): Promise<ChainAnswers> {
  return askChainFirst({
    chain: chainAnswersOf(ctx, finding),
    order,
    payments,
    transactions: finding.transactions,
    fullLook: finding.batch.scope === 'all',
    prove: (txid) => proveTransaction(ctx, txid),
  })
}

/**
 * One order's payments and status written in one transaction, so no reader sees a payment
 * without the totals and flags it changes (the owner's order view reads both): the chain is
 * asked first, outside it (askChainFirst), and the transaction only writes.
 */
async function recordAndSettleAtOnce(ctx: WorkerContext, finding: Finding, order: Order) {
  const answers = await askChainFirstFor(
    ctx,
    finding,
    order,
    await paymentsOf(ctx.payload, order.id),
  )
  try {
    return await inOneTransaction(ctx.payload, async (req) => {
      // The fencing check: a worker that lost the lease writes nothing more.
      if (ctx.lease?.lost()) throw new LeaseLostError()
      const recorded = await paymentsOf(ctx.payload, order.id, req)
      return recordAndSettle(ctx, finding, order, { recorded, req, answers })
    })
  } catch (error) {
    if (error instanceof LeaseLostError || ctx.lease?.lost()) throw error
    // The order cannot be settled (its judgement goes to the owner as needing attention), but
    // the money the chain shows is recorded all the same, on its own.
    await recordPayments(recordingOf(ctx, finding, order, answers))
    throw error
  }
}

/** What recording a finding for an order takes: the look, the chain's answers, the settings. */
function recordingOf(
  ctx: WorkerContext,
  finding: Finding,
  order: Order,
  answers: ChainAnswers = chainAnswersOf(ctx, finding),
): RecordPaymentsInput {
  const { payload, settings, logger, graceMs } = ctx
  const { batch, transactions, startedAt } = finding
  return {
    payload,
    order,
    transactions,
    ...answers,
    fullLook: batch.scope === 'all',
    checkStartedAt: new Date(startedAt),
    notSeenAt: new Date(notSeenAtOf(finding)),
    graceMs,
    missingSpanMs: settings.paymentMissingMinutes * 60_000,
    logger,
  }
}

/** The order's payments as the chain shows them, recorded, and the status they call for. */
export async function recordAndSettle(
  ctx: WorkerContext,
  finding: Finding,
  order: Order,
  together?: { recorded: Payment[]; req: PayloadRequest; answers?: ChainAnswers },
) {
  const { payload, settings, logger, graceMs } = ctx
  const { startedAt } = finding
  const payments = await recordPayments({
    ...recordingOf(ctx, finding, order, together?.answers ?? finding.answers),
    recorded: together?.recorded,
    req: together?.req,
  })
  if (payments.length > 0) await faultPoint('after-record', order.id)
  finding.w.inDoubt = payments.some((p) => p.doubtedAt && !p.invalidatedAt)
  followPayments(ctx, order, payments, finding.knownHex)
  return settleOrder({
    payload,
    order,
    payments,
    // A pushed header or a proof may show a block the last read of the tip did not.
    tipHeight: Math.max(ctx.tip.height, ctx.proofs.highestHeader),
    settings: { confirmationsRequired: settings.confirmationsRequired, graceMs },
    logger,
    now: new Date(startedAt),
    req: together?.req,
  })
}
