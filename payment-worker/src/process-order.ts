import { P2PKH, Transaction } from '@bsv/sdk'
import type { OrderStatus } from '@shop/domain'
import { assertTransition, deriveOrderPaymentState, PAID_ORDER_STATUSES } from '@shop/domain'
import type { Payload, PayloadRequest } from 'payload'

import { inOneTransaction, recordPaymentConfirmation, slugs } from '@shop/cms/engine'
import type { Order, Payment } from '@shop/cms/engine'
import type { AddressTransaction, Outpoint, SpentBy, TransactionReport } from '@shop/chain'

/**
 * One order, one pass, idempotent: records every output paying the order's address (one
 * Payment per outpoint; the unique outpoint makes a repeat a no-op), then moves the order to the
 * status its recorded payments and the clock call for, through the domain's transition table.
 * Everything it decides is derived from the database, so a crash anywhere is repaired by the
 * next pass. Delivery is a job the Orders seam queues with the change to PAID (worker/jobs.ts
 * runs it).
 */

export type OrderSettings = {
  confirmationsRequired: number
  /** How long after its expiry an order still counts a payment as on time (propagation). */
  graceMs: number
}
type Log = Pick<Payload['logger'], 'info' | 'warn' | 'error'>

/** The outputs of a raw transaction that pay `address` (P2PKH), with exact satoshis. */
export function outputsPaying(
  txHex: string,
  address: string,
): { vout: number; satoshis: number }[] {
  const tx = Transaction.fromHex(txHex)
  const script = new P2PKH().lock(address).toHex()
  const found: { vout: number; satoshis: number }[] = []
  tx.outputs.forEach((output, vout) => {
    if (output.lockingScript.toHex() === script)
      found.push({ vout, satoshis: output.satoshis ?? 0 })
  })
  return found
}

/** The outputs a raw transaction spends, as "txid:vout". */
export function inputsOf(txHex: string): string[] {
  return Transaction.fromHex(txHex).inputs.map(
    (input) => `${input.sourceTXID ?? ''}:${input.sourceOutputIndex}`,
  )
}

/** Full looks in a row a payment must be missing from before it can count as dropped. */
export const MISSING_LOOKS_TO_DROP = 3

export async function paymentsOf(
  payload: Payload,
  orderId: string,
  req?: PayloadRequest,
): Promise<Payment[]> {
  const found = await payload.find({
    req,
    collection: slugs.payments,
    where: { order: { equals: orderId } },
    limit: 1000,
    depth: 0,
    pagination: false,
    sort: 'seenAt',
  })
  return found.docs as Payment[]
}

/** The order's deadline: its expiry plus the grace period for propagation. */
export const deadlineOf = (order: Pick<Order, 'gatewayExpiresAt'>, graceMs: number) =>
  new Date(new Date(order.gatewayExpiresAt).getTime() + graceMs)

/**
 * The shop's own check of a transaction's merkle proof (worker/proofs.ts): verified, with what
 * it rests on, or refused with the reason the owner reads.
 */
export type ProofVerdict =
  | {
      ok: true
      blockHeight: number
      blockHash: string
      merkleRoot: string
      merklePath: string
      sources: string
    }
  | { ok: false; blockHeight: number; problem: string }

/** What recordPayments is asked to record: one look at the chain for one order. */
export type RecordPaymentsInput = {
  payload: Payload
  order: Order
  transactions: readonly AddressTransaction[]
  getTransactionHex: (txid: string) => Promise<string>
  getBlockTime: (height: number) => Promise<Date>
  /** Asked fresh for a recorded payment the look no longer found. */
  getTransactionStatus: (txid: string) => Promise<'confirmed' | 'mempool' | 'unknown'>
  /** Where outputs were spent ("txid:vout" -> spender, 'unspent' or 'unknown'), asked fresh. */
  getSpentBy?: (outpoints: readonly Outpoint[]) => Promise<ReadonlyMap<string, SpentBy>>
  /** How long a payment must be absent from every index before it counts as dropped. */
  missingSpanMs: number
  /** The proofs checked for the transactions the look found in blocks, by txid. */
  proofs?: ReadonlyMap<string, ProofVerdict>
  /**
   * The second source's word on a transaction WhatsOnChain no longer knows (ARC's report), or
   * null when it has none: a payment it still has (seen, mined) is kept.
   */
  secondOpinion?: (txid: string) => Promise<TransactionReport | null>
  /**
   * The look covered confirmed and unconfirmed transactions: only then does a recorded payment
   * missing from it mean anything (a mempool-only look misses the ones just mined).
   */
  fullLook: boolean
  /** When the look that found `transactions` began. */
  checkStartedAt: Date
  /**
   * When the last look that judged the order without these payments began (its window of doubt
   * opens there); unknown (a first look since the worker started): the look's own start.
   */
  notSeenAt?: Date
  graceMs: number
  logger: Log
  /** The order's payments as stored, when the caller has read them (a batch reads them at once). */
  recorded?: Payment[]
  /** The transaction the writes belong to (a batch settles its orders in one). */
  req?: PayloadRequest
}

/** The look being recorded, and whether a payment it found is late. */
type Recording = RecordPaymentsInput & {
  /** Late unless the look began before the deadline or its block was mined before it. */
  isLate: (height: number | null) => Promise<boolean>
}

/** An output paying the order's address, as the look found it. */
type FoundOutput = {
  txid: string
  vout: number
  satoshis: number
  /** Its block, or null in the mempool. */
  height: number | null
  /** The raw transaction, when it had to be read (an output not recorded yet). */
  hex: string | null
}

/**
 * Records the payments a look at the chain found. Whether one is on time is judged by the chain,
 * not by the worker's clock when it records: a payment found by a look whose window of doubt
 * opened before the deadline (the last look without it began before it) is on time, and so is
 * one in a block mined before the deadline, however late the worker (or the chain source, after
 * an outage) sees it.
 */
export async function recordPayments(input: RecordPaymentsInput): Promise<Payment[]> {
  const { payload, order, transactions, getBlockTime, checkStartedAt, req } = input
  let payments = input.recorded ?? (await paymentsOf(payload, order.id, req))
  const deadline = deadlineOf(order, input.graceMs).getTime()
  // A payment whose window of doubt straddles the deadline may have come in time: on time.
  const windowOpened = Math.min(
    (input.notSeenAt ?? checkStartedAt).getTime(),
    checkStartedAt.getTime(),
  )
  const lookedLate = order.status === 'EXPIRED' || windowOpened >= deadline
  const recording: Recording = {
    ...input,
    isLate: async (height) =>
      lookedLate && !(height !== null && (await getBlockTime(height)).getTime() <= deadline),
  }
  let changed = false
  for (const { txid, height } of transactions) {
    const outputs = await outputsOf(recording, payments, txid)
    if (outputs.length === 0) continue
    // A transaction's outputs are recorded together (outputsOf relies on it).
    const recordedNow = await inOneTransaction(
      payload,
      async (req) => {
        let any = false
        for (const { vout, satoshis, hex } of outputs) {
          const known = payments.find((p) => p.outpoint === `${txid}:${vout}`)
          const output = { txid, vout, satoshis, height, hex }
          if (await recordOutput({ ...recording, req }, output, known)) any = true
        }
        return any
      },
      req,
    )
    if (recordedNow) changed = true
  }
  if (input.fullLook && (await recordMissing(recording, payments))) changed = true
  if (changed) payments = await paymentsOf(payload, order.id, req)
  return payments
}

/**
 * The outputs of a transaction that pay the order: those recorded when it was first seen (every
 * output of a transaction is recorded in one write, so a recorded one stands for all), otherwise
 * read from its raw transaction.
 */
async function outputsOf(
  recording: Recording,
  payments: readonly Payment[],
  txid: string,
): Promise<{ vout: number; satoshis: number; hex: string | null }[]> {
  const recorded = payments.filter((p) => p.txid === txid)
  if (recorded.length > 0)
    return recorded.map((p) => ({ vout: p.vout, satoshis: p.satoshis, hex: null }))
  const hex = await recording.getTransactionHex(txid)
  return outputsPaying(hex, recording.order.paymentAddress).map((o) => ({ ...o, hex }))
}

/**
 * What recording this look needs from the chain: the ids of the transactions it found that are
 * not recorded yet (their raw transactions say what they pay), or null when it needs more: a
 * recorded payment missing from a full look, or an invalidated one found again (judging either
 * asks the chain). Such looks, once those raw transactions are in hand (a rush's payments, a
 * block confirming them, a deadline passing), are recorded and settled together.
 */
export function transactionsToFetch(
  payments: readonly Payment[],
  transactions: readonly AddressTransaction[],
  fullLook: boolean,
): string[] | null {
  const valid = new Set(payments.filter((p) => !p.invalidatedAt).map((p) => p.txid))
  const known = new Set(payments.map((p) => p.txid))
  if (transactions.some((t) => known.has(t.txid) && !valid.has(t.txid))) return null
  if (fullLook) {
    const found = new Set(transactions.map((t) => t.txid))
    if (![...valid].every((txid) => found.has(txid))) return null
  }
  return [...new Set(transactions.filter((t) => !known.has(t.txid)).map((t) => t.txid))]
}

/** What recording a look asks the chain: the functions recordPayments is given. */
export type ChainAnswers = Pick<
  RecordPaymentsInput,
  | 'getTransactionHex'
  | 'getBlockTime'
  | 'getTransactionStatus'
  | 'getSpentBy'
  | 'proofs'
  | 'secondOpinion'
>

/**
 * The chain asked first, outside any transaction, for everything recording this look will ask
 * (the raw transactions of new payments, the times of their blocks, the fate of a recorded
 * payment a full look no longer found): the answers come back as functions that give them from
 * memory, so the recording's transaction only writes. A question the warm-up did not foresee
 * (the payments changed meanwhile) is asked of the chain then.
 */
export async function askChainFirst({
  chain,
  order,
  payments,
  transactions,
  fullLook,
  prove,
}: {
  chain: ChainAnswers
  order: Pick<Order, 'paymentAddress'>
  payments: readonly Payment[]
  transactions: readonly AddressTransaction[]
  fullLook: boolean
  /** The shop's check of a transaction's merkle proof; null: no source has one yet. */
  prove?: (txid: string) => Promise<ProofVerdict | null>
}): Promise<ChainAnswers> {
  const remembered = <A, R>(ask: (arg: A) => Promise<R>, keyOf: (arg: A) => string) => {
    const answers = new Map<string, Promise<R>>()
    return (arg: A) => {
      const key = keyOf(arg)
      let answer = answers.get(key)
      if (!answer) {
        answer = ask(arg)
        answers.set(key, answer)
        // A failed answer is not kept: asked again, it may succeed.
        answer.catch(() => answers.delete(key))
      }
      return answer
    }
  }
  const { getSpentBy, secondOpinion } = chain
  const answers: ChainAnswers = {
    secondOpinion: secondOpinion ? remembered(secondOpinion, String) : undefined,
    getTransactionHex: remembered(chain.getTransactionHex, String),
    getBlockTime: remembered(chain.getBlockTime, String),
    getTransactionStatus: remembered(chain.getTransactionStatus, String),
    getSpentBy: getSpentBy
      ? remembered(getSpentBy, (outpoints) => outpoints.map((o) => `${o.txid}:${o.vout}`).join(','))
      : undefined,
  }
  const known = new Set(payments.map((p) => p.txid))
  const proofs = new Map<string, ProofVerdict>()
  for (const { txid, height } of transactions) {
    // A new payment's raw transaction, in the mempool too: recording it must not wait for
    // the chain inside its transaction, which holds the database's writer (SQLite's one).
    if (!known.has(txid)) {
      const hex = await answers.getTransactionHex(txid)
      if (outputsPaying(hex, order.paymentAddress).length === 0) continue
      if (height !== null) await answers.getBlockTime(height)
    }
    if (height === null) continue
    const recorded = payments.find((p) => p.txid === txid)
    if (recorded && isProvenAt(recorded, height)) continue
    const verdict = prove ? await prove(txid) : null
    if (verdict) proofs.set(txid, verdict)
  }
  answers.proofs = proofs
  if (fullLook) {
    const found = new Set(transactions.map((t) => t.txid))
    const missing = new Set(
      payments.filter((p) => !p.invalidatedAt && !found.has(p.txid)).map((p) => p.txid),
    )
    for (const txid of missing) {
      if ((await answers.getTransactionStatus(txid)) !== 'unknown') continue
      await answers.secondOpinion?.(txid)
      const spends = spendsOf(payments.filter((p) => p.txid === txid))
      if (answers.getSpentBy && spends.length > 0) await answers.getSpentBy(outpointsOf(spends))
    }
  }
  return answers
}

/** One output the look found, recorded or brought up to date; true when the database changed. */
async function recordOutput(
  recording: Recording,
  output: FoundOutput,
  known: Payment | undefined,
): Promise<boolean> {
  const { payload, checkStartedAt } = recording
  const { height } = output
  if (!known) {
    await createPayment(recording, output)
    return true
  }
  if (known.invalidatedAt) {
    await restorePayment(recording, output, known)
    return true
  }
  const proof = proofFieldsOf(recording, output, known)
  // In a block: whatever doubt a competing spend raised is settled by the chain.
  const lift: Record<string, null> =
    height !== null && known.doubtedAt ? { doubtedAt: null, doubtReason: null } : {}
  if (
    (known.blockHeight ?? null) === height &&
    !known.missingSince &&
    Object.keys(proof).length === 0 &&
    Object.keys(lift).length === 0
  )
    return false
  await recordPaymentConfirmation({
    payload,
    req: recording.req,
    id: known.id,
    blockHeight: height,
    confirmedAt: height !== null ? (known.confirmedAt ?? checkStartedAt.toISOString()) : null,
    also: { ...proof, ...lift },
  })
  if (proof.proofProblem)
    recording.logger.warn(
      { orderId: recording.order.id, txid: output.txid, problem: proof.proofProblem },
      'merkle proof refused: not a confirmation',
    )
  return true
}

/** Proven in the block at `height`: a merkle proof for it verified there. */
export function isProvenAt(
  payment: Pick<Payment, 'proofVerifiedAt' | 'proofBlockHeight'>,
  height: number | null,
): boolean {
  return height !== null && Boolean(payment.proofVerifiedAt) && payment.proofBlockHeight === height
}

/**
 * The proof fields a look changes: the proof checked for its block (verified, or the problem
 * kept for the owner), or the proof cleared when the payment left the block it proved.
 */
function proofFieldsOf(
  recording: Recording,
  { txid, height }: FoundOutput,
  known: Payment | undefined,
): Record<string, string | number | null> {
  const verdict = height !== null ? recording.proofs?.get(txid) : undefined
  if (verdict?.ok && verdict.blockHeight === height)
    return {
      proofVerifiedAt: recording.checkStartedAt.toISOString(),
      proofBlockHeight: verdict.blockHeight,
      proofBlockHash: verdict.blockHash,
      proofMerkleRoot: verdict.merkleRoot,
      proofMerklePath: verdict.merklePath,
      proofSources: verdict.sources,
      proofProblem: null,
    }
  if (verdict && !verdict.ok && verdict.problem !== known?.proofProblem)
    return { proofProblem: verdict.problem }
  if (known?.proofVerifiedAt && !isProvenAt(known, height))
    return { proofVerifiedAt: null, proofBlockHeight: null, proofBlockHash: null }
  return {}
}

async function createPayment(recording: Recording, output: FoundOutput) {
  const { payload, order, checkStartedAt, logger } = recording
  const { txid, vout, satoshis, height, hex } = output
  const outpoint = `${txid}:${vout}`
  const late = await recording.isLate(height)
  try {
    await payload.create({
      req: recording.req,
      collection: slugs.payments,
      depth: 0,
      data: {
        outpoint,
        order: order.id,
        txid,
        vout,
        satoshis,
        address: order.paymentAddress,
        seenAt: checkStartedAt.toISOString(),
        blockHeight: height,
        confirmedAt: height !== null ? checkStartedAt.toISOString() : null,
        late,
        spends: hex ? inputsOf(hex) : [],
        ...proofFieldsOf(recording, output, undefined),
      },
    })
    logger.info({ orderId: order.id, outpoint, satoshis, late, height }, 'payment recorded')
  } catch (error) {
    // Recorded meanwhile by another pass: the unique outpoint did its job.
    const again = await payload.count({
      collection: slugs.payments,
      where: { outpoint: { equals: outpoint } },
    })
    if (again.totalDocs === 0) throw error
  }
}

/** Seen again: the chain has it after all. It counts again, and the order is judged anew. */
async function restorePayment(recording: Recording, output: FoundOutput, known: Payment) {
  const { payload, order, checkStartedAt, logger } = recording
  const { height } = output
  await payload.update({
    req: recording.req,
    collection: slugs.payments,
    id: known.id,
    depth: 0,
    data: {
      invalidatedAt: null,
      invalidReason: null,
      doubtedAt: null,
      doubtReason: null,
      missingSince: null,
      missingLooks: 0,
      blockHeight: height,
      confirmedAt: height !== null ? checkStartedAt.toISOString() : null,
    },
  })
  logger.warn(
    { orderId: order.id, outpoint: known.outpoint, height, was: known.invalidReason },
    'payment restored: the chain has it again',
  )
}

/**
 * Recorded payments a full look no longer found, judged transaction by transaction
 * (judgeMissing); true when the database changed.
 */
async function recordMissing(recording: Recording, payments: readonly Payment[]) {
  const found = new Set(recording.transactions.map((t) => t.txid))
  const missing = [
    ...new Set(payments.filter((p) => !p.invalidatedAt && !found.has(p.txid)).map((p) => p.txid)),
  ]
  let changed = false
  for (const txid of missing) {
    const ofTx = payments.filter((p) => p.txid === txid)
    const verdict = await judgeMissing({ ...recording, txid, payments: ofTx })
    if (verdict.kind === 'known' && !ofTx.some((p) => p.missingSince)) continue
    await recordVerdict(recording, txid, ofTx, verdict)
    changed = true
  }
  return changed
}

async function recordVerdict(
  { payload, order, checkStartedAt, logger, req }: Recording,
  txid: string,
  ofTx: readonly Payment[],
  verdict: MissingVerdict,
) {
  for (const payment of ofTx)
    await payload.update({
      req,
      collection: slugs.payments,
      id: payment.id,
      depth: 0,
      data:
        verdict.kind === 'invalid'
          ? {
              invalidatedAt: checkStartedAt.toISOString(),
              invalidReason: verdict.reason,
              blockHeight: null,
            }
          : verdict.kind === 'known'
            ? { missingSince: null, missingLooks: 0 }
            : { missingSince: verdict.since.toISOString(), missingLooks: verdict.looks },
    })
  if (verdict.kind === 'invalid')
    logger.warn({ orderId: order.id, txid, reason: verdict.reason }, 'payment invalidated')
  else if (verdict.kind === 'missing')
    logger.info(
      { orderId: order.id, txid, looks: verdict.looks, since: verdict.since.toISOString() },
      'payment not found by this look; kept until there is evidence',
    )
}

type MissingVerdict =
  | { kind: 'known' }
  | { kind: 'missing'; since: Date; looks: number }
  | { kind: 'invalid'; reason: string }

/**
 * A recorded payment a full look no longer found, and the second source (ARC), when there is one,
 * does not have either. WhatsOnChain answers "not found" while an
 * index moves a transaction from its mempool to a block, and when a lookup fails inside it, so
 * absence is not proof. A payment is invalid on evidence only: a conflicting spend of one of its
 * inputs (a missing or unknown answer is never read as spent), or absence from every index and
 * every lookup across MISSING_LOOKS_TO_DROP full looks spanning at least `missingSpanMs`.
 */
async function judgeMissing({
  txid,
  payments,
  getTransactionStatus,
  getSpentBy,
  secondOpinion,
  checkStartedAt,
  missingSpanMs,
}: {
  txid: string
  payments: readonly Payment[]
  getTransactionStatus: (txid: string) => Promise<'confirmed' | 'mempool' | 'unknown'>
  getSpentBy?: (outpoints: readonly Outpoint[]) => Promise<ReadonlyMap<string, SpentBy>>
  secondOpinion?: (txid: string) => Promise<TransactionReport | null>
  checkStartedAt: Date
  missingSpanMs: number
}): Promise<MissingVerdict> {
  if ((await getTransactionStatus(txid)) !== 'unknown') return { kind: 'known' }
  // The other source contradicts WhatsOnChain: it has the transaction (seen, or mined).
  const opinion = (await secondOpinion?.(txid)) ?? null
  if (opinion && ['seen', 'mined', 'pending'].includes(opinion.state)) return { kind: 'known' }
  const spends = spendsOf(payments)
  if (getSpentBy && spends.length > 0) {
    const spentBy = await getSpentBy(outpointsOf(spends))
    for (const outpoint of spends) {
      const spender = spentBy.get(outpoint)
      if (spender && spender !== 'unspent' && spender !== 'unknown' && spender !== txid)
        return {
          kind: 'invalid',
          reason: `The transaction was double-spent: the output ${outpoint} it spent was spent by ${spender}.${
            opinion ? ` ARC does not contradict it (${opinion.sourceStatus ?? opinion.state}).` : ''
          } It does not count.`,
        }
    }
  }
  const first = payments.map((p) => p.missingSince).find(Boolean)
  const since = first ? new Date(first) : checkStartedAt
  const looks = Math.max(...payments.map((p) => p.missingLooks ?? 0)) + 1
  if (looks >= MISSING_LOOKS_TO_DROP && checkStartedAt.getTime() - since.getTime() >= missingSpanMs)
    return {
      kind: 'invalid',
      reason: `Dropped: absent from every index and unknown to every lookup for ${Math.round(
        (checkStartedAt.getTime() - since.getTime()) / 60_000,
      )} minutes across ${looks} looks. It does not count.`,
    }
  return { kind: 'missing', since, looks }
}

/** "txid:vout" strings as outpoints. */
function outpointsOf(spends: readonly string[]): Outpoint[] {
  return spends.map((outpoint) => {
    const [source, vout] = outpoint.split(':')
    return { txid: source!, vout: Number(vout) }
  })
}

/** The outputs a recorded payment spends, as stored when it was first seen. */
function spendsOf(payments: readonly Payment[]): string[] {
  const stored = payments.map((p) => p.spends).find((s) => Array.isArray(s))
  return (stored as unknown[] | undefined)?.filter((s): s is string => typeof s === 'string') ?? []
}

/**
 * Confirmations counted for a payment: only in the block a merkle proof the shop verified puts
 * it in (an index's word that it is in a block is not enough); the proof itself shows the chain
 * reaches that block, whatever the tip last read.
 */
export function confirmationsOf(
  payment: Pick<Payment, 'blockHeight' | 'proofVerifiedAt' | 'proofBlockHeight'>,
  tipHeight: number,
): number {
  const height = payment.blockHeight ?? null
  if (height === null || height <= 0 || !isProvenAt(payment, height)) return 0
  return Math.max(tipHeight, height) - height + 1
}

/** Applies the status the recorded payments call for; returns the order as stored. */
export async function settleOrder({
  payload,
  order,
  payments,
  tipHeight,
  settings,
  logger,
  now = new Date(),
  req,
}: {
  payload: Payload
  order: Order
  payments: readonly Payment[]
  tipHeight: number
  settings: OrderSettings
  logger: Log
  /** When the look at the chain began: an order expires only by a look begun after its deadline. */
  now?: Date
  /** The transaction the change belongs to (a batch settles its orders in one). */
  req?: PayloadRequest
}): Promise<Order> {
  const from = order.status as OrderStatus
  const derived = deriveOrderPaymentState({
    status: from,
    amountSatoshiExpected: order.amountSatoshiExpected,
    payments: payments.map((p) => ({
      satoshis: p.satoshis,
      confirmations: confirmationsOf(p, tipHeight),
      late: Boolean(p.late),
      invalid: Boolean(p.invalidatedAt),
      doubtful: Boolean(p.doubtedAt),
    })),
    expiresAt: deadlineOf(order, settings.graceMs),
    now,
    confirmationsRequired: settings.confirmationsRequired,
  })
  const to = derived.status
  const move = assertTransition(from, to)
  const data = changesOf(order, derived, move, payments)
  if (Object.keys(data).length === 0) return order

  // The Orders collection's hooks check the move and do what it causes (the copy back to the
  // shelf on EXPIRED, the delivery queued on PAID) in the same transaction.
  const updated = (await payload.update({
    req,
    collection: slugs.orders,
    id: order.id,
    depth: 0,
    data,
  })) as Order
  if (move) {
    logger.info(
      { orderId: order.id, from, to, received: derived.received, due: order.amountSatoshiExpected },
      'order status changed',
    )
  }
  if (data.flags && (derived.flags.paidLate || derived.flags.paidOver)) {
    logger.warn(
      { orderId: order.id, flags: derived.flags, received: derived.received },
      'payment exception flagged for the owner',
    )
  }
  return updated
}

/** The fields of the order the derived state changes (none: nothing to write). */
function changesOf(
  order: Order,
  derived: ReturnType<typeof deriveOrderPaymentState>,
  move: boolean,
  payments: readonly Payment[],
): Partial<Order> {
  const from = order.status as OrderStatus
  const latest = payments
    .filter((p) => !p.invalidatedAt)
    .sort((a, b) => String(a.seenAt).localeCompare(String(b.seenAt)))
    .at(-1)
  const flags = order.flags ?? {}
  const data: Partial<Order> = {}
  if (move) data.status = derived.status
  if ((order.amountSatoshiReceived ?? 0) !== derived.received)
    data.amountSatoshiReceived = derived.received
  // Once paid, the order keeps the transaction that paid it; later money only adds up and flags.
  const keepTxid = Boolean(order.paymentTxid) && PAID_ORDER_STATUSES.includes(from)
  if (latest && !keepTxid && order.paymentTxid !== latest.txid) data.paymentTxid = latest.txid
  if (
    Boolean(flags.paidLate) !== derived.flags.paidLate ||
    Boolean(flags.paidPartial) !== derived.flags.paidPartial ||
    Boolean(flags.paidOver) !== derived.flags.paidOver ||
    Boolean(flags.paidInvalid) !== derived.flags.paidInvalid
  ) {
    data.flags = derived.flags
  }
  return data
}
