import type { TransactionReport } from '@shop/chain'
import { stateOfTxStatus } from '@shop/chain'
import { Transaction } from '@bsv/sdk'
import type { Order, Payment } from '@shop/cms/engine'
import { inOneTransaction, recordChainHealth, slugs } from '@shop/cms/engine'

import { isProvenAt, paymentsOf, settleOrder } from '../process-order'
import { ASK_AT_MS, ASKS_AFTER_BLOCKS } from '../watch/followSchedule'
import { askFullLook } from '../watch/watched'
import { isFunded } from './watchList'
import type { Finding } from './judge'
import { judgeFindings, oneJudgementAtATime } from './judge'
import type { Disagreement, FollowedPayment, WorkerContext } from './state'

/**
 * Every payment seen but not yet proven in a block is followed on the second source (ARC), by
 * its txid: submitted to it once (ARC knows only what it was given), then asked on a short
 * schedule that thins out, and once more after each of a few blocks. A double-spend is seen
 * within seconds whether or not the push stream carries payments, and also at once when the
 * stream carries a transaction spending one of the payment's inputs. Either makes the payment
 * doubtful (it no longer counts: its order leaves PAYMENT_DETECTED, the owner is alerted) and
 * asks WhatsOnChain for a full look at once: the payment becomes invalid only on the chain's
 * evidence there (a spent-output answer naming the competitor) with ARC not contradicting it
 * (process-order.ts, judgeMissing). Mined, ARC's report carries the merkle path the order's
 * confirmation is proven with (proofs.ts), which also carries a payment to PAID while
 * WhatsOnChain is down. Where the shop registers ARC's callbacks, a callback that the payment's
 * status changed brings its next ask forward to now (askOnCallback): a double-spend after the
 * schedule's frequent asks is seen within seconds too, and no callback decides anything itself.
 */

/** The statuses whose callback is worth an ask now: a competitor, a rejection, a block. */
const CALLBACK_STATES = new Set(['double-spend', 'rejected', 'mined', 'stale'])

/** A failed ask is tried again after this long (it still counts against the payment's asks). */
const RETRY_MS = 3_000
/** Disagreements kept for the owner's card. */
const DISAGREEMENTS_KEPT = 20

const NULL_TXID = '00'.repeat(32)

const ACTIVE_STATES = new Set(['mined', 'seen', 'pending'])

/**
 * The order's payments as just recorded: those not yet proven are followed from now on, the
 * proven and the invalid ones no longer.
 */
export function followPayments(
  ctx: WorkerContext,
  order: Pick<Order, 'id'>,
  payments: readonly Payment[],
  knownHex?: ReadonlyMap<string, string>,
) {
  const now = ctx.clock()
  let added = false
  for (const payment of payments) {
    const { txid } = payment
    if (payment.invalidatedAt || isProvenAt(payment, payment.blockHeight ?? null)) {
      unfollow(ctx, txid)
      continue
    }
    if (ctx.follow.payments.has(txid)) continue
    // A coinbase-style input (the null outpoint) competes with nothing.
    const spends = Array.isArray(payment.spends)
      ? payment.spends.filter(
          (s): s is string => typeof s === 'string' && !s.startsWith(`${NULL_TXID}:`),
        )
      : []
    ctx.follow.payments.set(txid, {
      txid,
      orderId: order.id,
      hex: knownHex?.get(txid),
      spends,
      since: now,
      asks: 0,
      nextAt: now,
      submitted: false,
      blockAsks: 0,
      tipAtAsk: highestBlock(ctx),
      recordedStatus: payment.arcStatus ?? null,
      doubted: Boolean(payment.doubtedAt),
    })
    for (const outpoint of spends) ctx.follow.spends.set(outpoint, txid)
    added = true
  }
  if (added) scheduleFollow(ctx, 0)
}

function unfollow(ctx: WorkerContext, txid: string) {
  const followed = ctx.follow.payments.get(txid)
  if (!followed) return
  ctx.follow.payments.delete(txid)
  ctx.follow.reports.delete(txid)
  for (const outpoint of followed.spends)
    if (ctx.follow.spends.get(outpoint) === txid) ctx.follow.spends.delete(outpoint)
}

const highestBlock = (ctx: WorkerContext) => Math.max(ctx.tip.height, ctx.proofs.highestHeader)

/** The next round of asks in `ms` (sooner than one already planned). */
export function scheduleFollow(ctx: WorkerContext, ms: number) {
  const { follow, run } = ctx
  if (run.stopped || !ctx.txSource) return
  if (follow.timer) clearTimeout(follow.timer)
  follow.timer = setTimeout(
    () => {
      follow.timer = undefined
      follow.running ??= askDue(ctx).finally(() => {
        follow.running = undefined
        const next = nextAsk(ctx)
        if (next !== null) scheduleFollow(ctx, Math.max(50, next - ctx.clock()))
      })
    },
    Math.max(0, ms),
  )
  follow.timer.unref?.()
}

/** When the next ask is due, or null when nothing waits but a block. */
function nextAsk(ctx: WorkerContext): number | null {
  let next: number | null = null
  for (const f of ctx.follow.payments.values())
    if (Number.isFinite(f.nextAt)) next = next === null ? f.nextAt : Math.min(next, f.nextAt)
  return next
}

/** A block came: payments whose schedule is spent are asked once more (for their path). */
export function followAfterBlock(ctx: WorkerContext) {
  const tip = highestBlock(ctx)
  let any = false
  for (const f of ctx.follow.payments.values())
    if (!Number.isFinite(f.nextAt) && f.blockAsks < ASKS_AFTER_BLOCKS && tip > f.tipAtAsk) {
      f.blockAsks += 1
      f.nextAt = ctx.clock()
      any = true
    }
  if (any) scheduleFollow(ctx, 0)
}

/** The next ask of a followed payment is due after its `asks` so far (none once spent). */
function planNext(followed: FollowedPayment) {
  const at = ASK_AT_MS[followed.asks]
  followed.nextAt = at === undefined ? Number.POSITIVE_INFINITY : followed.since + at
}

/**
 * A proof would ask ARC about a payment now: true when it may, the ask counted as one of its
 * follower's (the schedule's next, or one of the asks after blocks), so the payment's calls
 * to ARC over its life stay within that count; false for a payment not followed, or whose
 * asks are spent.
 */
export function countFollowAsk(ctx: WorkerContext, txid: string): boolean {
  const followed = ctx.follow.payments.get(txid)
  if (!followed?.submitted) return false
  if (Number.isFinite(followed.nextAt)) {
    followed.asks += 1
    planNext(followed)
  } else if (followed.blockAsks < ASKS_AFTER_BLOCKS) followed.blockAsks += 1
  else return false
  followed.tipAtAsk = highestBlock(ctx)
  return true
}

/**
 * ARC called back: `txid`'s status is now `txStatus` (worker/arcCallbacks.ts). For a followed
 * payment whose status is one worth asking about (a competitor, a rejection, a block) and not
 * the one ARC last answered, the schedule's next ask is made now, ahead of the routine asks;
 * once the schedule is spent, one of the asks after blocks. So a payment's calls to ARC stay
 * within the schedule's count, and the ask's answer, not the callback, is what is judged. A
 * payment not yet submitted is left alone: its submission is its next ask. Answers whether an
 * ask was brought forward.
 */
export function askOnCallback(ctx: WorkerContext, txid: string, txStatus: string): boolean {
  const followed = ctx.follow.payments.get(txid)
  if (!followed?.submitted || !CALLBACK_STATES.has(stateOfTxStatus(txStatus))) return false
  if (ctx.follow.reports.get(txid)?.sourceStatus === txStatus) return false
  const now = ctx.clock()
  if (followed.nextAt > now) {
    if (!Number.isFinite(followed.nextAt)) {
      if (followed.blockAsks >= ASKS_AFTER_BLOCKS) return false
      followed.blockAsks += 1
    }
    followed.nextAt = now
  }
  followed.urgent = true
  scheduleFollow(ctx, 0)
  return true
}

async function askDue(ctx: WorkerContext) {
  const now = ctx.clock()
  const due = [...ctx.follow.payments.values()].filter((f) => f.nextAt <= now)
  const together: FollowedPayment[] = []
  const mined: Finding[] = []
  for (const followed of due) {
    if (ctx.run.stopped || ctx.run.standingBy) return
    noteAsk(ctx, followed)
    try {
      // With the raw transaction in hand (or to be submitted), it goes in the round's one
      // submission of many; else it is asked about alone.
      if (ctx.txSource!.submitAll && (followed.hex || !followed.submitted)) {
        followed.hex ??= await ctx.chain.getTransactionHex(followed.txid)
        together.push(followed)
      } else await askAlone(ctx, followed, mined)
    } catch (error) {
      askAgainSoon(ctx, followed, error)
    }
  }
  // A lone payment is asked by its txid (or submitted alone): a list is for many at once.
  const lone = together.length === 1 ? together.pop()! : undefined
  if (lone)
    await askAlone(ctx, lone, mined).catch((error: unknown) => askAgainSoon(ctx, lone, error))
  for (const [followed, outcome] of await submitTogether(ctx, together)) {
    if (outcome instanceof Error) {
      askAgainSoon(ctx, followed, outcome)
      continue
    }
    followed.submitted = true
    await answered(ctx, followed, outcome, mined).catch((error: unknown) =>
      askAgainSoon(ctx, followed, error),
    )
  }
  // The payments ARC has in a block, judged together (their orders settle in a few writes).
  if (mined.length > 0 && !ctx.run.stopped)
    await judgeFindings(ctx, mined).catch((error: unknown) =>
      ctx.logger.warn({ err: error }, 'judging payments ARC has in a block failed; asked again'),
    )
  // ARC's figures and the disagreements, for the owner's chain-health card.
  await recordChainHealth({
    payload: ctx.payload,
    source: 'arc',
    stats: ctx.txSource?.stats?.(),
    lastLookOkAt: ctx.follow.lastAnswerAt,
    disagreements: ctx.follow.disagreements,
  })
}

/** One payment asked about by its txid, or submitted alone the first time. */
async function askAlone(ctx: WorkerContext, followed: FollowedPayment, mined: Finding[]) {
  const report = followed.submitted
    ? await ctx.txSource!.getTransaction(followed.txid, { urgent: followed.urgent })
    : await ctx.txSource!.submit(
        (followed.hex ??= await ctx.chain.getTransactionHex(followed.txid)),
      )
  followed.submitted = true
  await answered(ctx, followed, report, mined)
}

/** An ask of a followed payment is made: counted, and its next one planned. */
function noteAsk(ctx: WorkerContext, followed: FollowedPayment) {
  followed.asks += 1
  followed.tipAtAsk = highestBlock(ctx)
  planNext(followed)
}

function askAgainSoon(ctx: WorkerContext, followed: FollowedPayment, error: unknown) {
  ctx.logger.warn(
    { err: error, txid: followed.txid, orderId: followed.orderId },
    'following a payment on ARC failed; asked again shortly',
  )
  followed.nextAt = ctx.clock() + RETRY_MS
}

/**
 * Followed payments handed to ARC together (`POST /v1/txs`, a hundred a call): the first
 * submission of some, the status now of the others, each answered on its own. A call that
 * fails fails each of its payments, asked again shortly.
 */
async function submitTogether(
  ctx: WorkerContext,
  together: readonly FollowedPayment[],
): Promise<[FollowedPayment, TransactionReport | Error][]> {
  if (together.length === 0) return []
  try {
    const outcomes = await ctx.txSource!.submitAll!(
      together.map((f) => f.hex!),
      { urgent: together.some((f) => f.urgent) },
    )
    return together.map((f, i) => [f, outcomes[i]!])
  } catch (error) {
    return together.map((f) => [f, error as Error])
  }
}

/**
 * ARC asked about the payments of a group's findings that a block confirms and whose proof
 * waits for ARC's path, all in one submission (a rush's block confirms hundreds): each ask is
 * one of its follower's (countFollowAsk), and the answers are kept where the proofs read them
 * (proofs.ts). Payments without their raw transaction in hand are left to the proof's own ask.
 */
export async function askArcBeforeProofs(ctx: WorkerContext, findings: readonly Finding[]) {
  if (!ctx.txSource?.submitAll) return
  const waiting = new Set<FollowedPayment>()
  for (const finding of findings)
    for (const { txid, height } of finding.transactions) {
      const followed = ctx.follow.payments.get(txid)
      if (!height || !followed?.hex || ctx.follow.reports.get(txid)?.state === 'mined') continue
      waiting.add(followed)
    }
  // One payment's proof asks ARC by its txid itself.
  if (waiting.size < 2) return
  const asked = [...waiting].filter((f) => countFollowAsk(ctx, f.txid))
  for (const [followed, outcome] of await submitTogether(ctx, asked)) {
    if (outcome instanceof Error) {
      ctx.logger.debug({ err: outcome, txid: followed.txid }, 'ARC gave no report for a proof')
      continue
    }
    ctx.follow.lastAnswerAt = new Date(ctx.clock())
    ctx.follow.reports.set(followed.txid, outcome)
  }
}

/** What ARC's answer about a followed payment causes; a payment in a block joins `mined`. */
async function answered(
  ctx: WorkerContext,
  followed: FollowedPayment,
  report: TransactionReport,
  mined: Finding[],
) {
  followed.urgent = false
  ctx.follow.lastAnswerAt = new Date(ctx.clock())
  ctx.follow.reports.set(followed.txid, report)
  await noteStatus(ctx, followed, report)
  if (report.state === 'double-spend' || report.state === 'rejected')
    await doubt(ctx, followed, reasonOf(report))
  else if (report.state === 'mined' && report.blockHeight !== null) {
    const finding = minedFinding(ctx, followed, report.blockHeight)
    if (finding) mined.push(finding)
  }
}

const reasonOf = (report: TransactionReport) =>
  report.state === 'rejected'
    ? `ARC reports the transaction rejected (${report.extraInfo ?? report.sourceStatus ?? 'no reason given'}).`
    : `ARC reports a competing spend of its inputs${
        report.competingTxs.length > 0 ? ` by ${report.competingTxs.join(', ')}` : ''
      }.`

/** The second source's word, kept on the payment when it changed (shown on the order page). */
async function noteStatus(
  ctx: WorkerContext,
  followed: FollowedPayment,
  report: TransactionReport,
) {
  const status = report.sourceStatus ?? report.state
  if (status === followed.recordedStatus) return
  // The payment may not be committed yet (followed from inside its recording): kept for the
  // next ask then.
  const ofTx = (await paymentsOf(ctx.payload, followed.orderId)).filter(
    (p) => p.txid === followed.txid,
  )
  for (const payment of ofTx)
    await ctx.payload.db.updateOne({
      collection: slugs.payments,
      id: payment.id,
      data: { arcStatus: status, arcCheckedAt: new Date(ctx.clock()).toISOString() },
      returning: false,
    })
  if (ofTx.length > 0) followed.recordedStatus = status
}

/**
 * A competing spend reported (by ARC, or carried by the push stream): the payment is in doubt at
 * once and its order settled without it; a full look asks WhatsOnChain for the evidence now.
 */
export async function doubt(ctx: WorkerContext, followed: FollowedPayment, reason: string) {
  const w = ctx.watch.get(followed.orderId)
  if (!followed.doubted) {
    const marked = await oneJudgementAtATime(ctx, [followed.orderId], () =>
      inOneTransaction(ctx.payload, async (req) => {
        const payments = await paymentsOf(ctx.payload, followed.orderId, req)
        const ofTx = payments.filter(
          (p) => p.txid === followed.txid && !p.invalidatedAt && !p.doubtedAt,
        )
        if (ofTx.length === 0) return false
        const at = new Date(ctx.clock()).toISOString()
        for (const payment of ofTx)
          await ctx.payload.db.updateOne({
            collection: slugs.payments,
            id: payment.id,
            data: { doubtedAt: at, doubtReason: reason },
            req,
            returning: false,
          })
        const order = (await ctx.payload.findByID({
          req,
          collection: slugs.orders,
          id: followed.orderId,
          depth: 0,
        })) as Order
        const settled = await settleOrder({
          payload: ctx.payload,
          order,
          payments: await paymentsOf(ctx.payload, followed.orderId, req),
          tipHeight: ctx.tip.height,
          settings: {
            confirmationsRequired: ctx.settings.confirmationsRequired,
            graceMs: ctx.graceMs,
          },
          logger: ctx.logger,
          now: new Date(ctx.clock()),
          req,
        })
        if (w) {
          w.status = settled.status
          w.funded = isFunded(settled)
          w.recorded = undefined
        }
        return true
      }),
    )
    // Not recorded yet (or already judged): the next ask tries again.
    if (!marked) {
      followed.nextAt = Math.min(followed.nextAt, ctx.clock() + ASK_AT_MS[1]!)
      return
    }
    followed.doubted = true
    ctx.logger.warn(
      { orderId: followed.orderId, txid: followed.txid, reason },
      'payment in doubt: a competing spend is reported; it does not count until the chain settles it',
    )
  }
  // The evidence is asked for now: a full look at the order (WhatsOnChain's spent outputs).
  if (w) {
    w.inDoubt = true
    askFullLook(w, ctx.clock(), { atOnce: true })
    ctx.wake()
  }
  // And the second source again soon, for the competitor's fate.
  followed.nextAt = Math.min(followed.nextAt, ctx.clock() + ASK_AT_MS[1]!)
}

/** ARC has it mined: the order is judged with its block, proven by ARC's merkle path. */
function minedFinding(
  ctx: WorkerContext,
  followed: FollowedPayment,
  height: number,
): Finding | null {
  const w = ctx.watch.get(followed.orderId)
  if (!w) return null
  return {
    w,
    batch: { scope: 'unconfirmed', orders: [w] },
    transactions: [{ txid: followed.txid, height }],
    startedAt: ctx.clock(),
    knownHex: followed.hex ? new Map([[followed.txid, followed.hex]]) : undefined,
  }
}

/**
 * A pushed transaction: when it spends an output a followed payment spends, and is not that
 * payment, it competes with it (the stream carries its signed bytes, checked against its txid).
 */
export function watchPushedSpends(ctx: WorkerContext, txid: string, hex: string | undefined) {
  if (!hex || ctx.follow.spends.size === 0) return
  let inputs: string[]
  try {
    inputs = Transaction.fromHex(hex).inputs.map(
      (input) => `${input.sourceTXID ?? ''}:${input.sourceOutputIndex}`,
    )
  } catch {
    return
  }
  for (const outpoint of inputs) {
    const payment = ctx.follow.spends.get(outpoint)
    const followed = payment ? ctx.follow.payments.get(payment) : undefined
    if (!followed || followed.txid === txid) continue
    void doubt(
      ctx,
      followed,
      `The push stream carried ${txid}, which spends the output ${outpoint} this payment spends.`,
    ).catch((error: unknown) =>
      ctx.logger.warn({ err: error, txid: followed.txid }, 'could not mark a payment in doubt'),
    )
  }
}

/** WhatsOnChain and ARC disagree about a transaction: kept for the owner's chain-health card. */
export function noteDisagreement(ctx: WorkerContext, disagreement: Omit<Disagreement, 'at'>) {
  const list = ctx.follow.disagreements
  list.unshift({ ...disagreement, at: new Date(ctx.clock()).toISOString() })
  list.length = Math.min(list.length, DISAGREEMENTS_KEPT)
  ctx.logger.warn(disagreement, 'WhatsOnChain and ARC disagree about a transaction')
}

/** What ARC says of a transaction WhatsOnChain no longer knows: kept when ARC has it. */
export function contradicts(report: TransactionReport | null): boolean {
  return report !== null && ACTIVE_STATES.has(report.state)
}
