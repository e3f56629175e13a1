import { MerklePath } from '@bsv/sdk'

import type { TransactionReport, TransactionState } from '../types'

/**
 * ARC's answers read into the shop's terms: a transaction's status (`TransactionStatus`, the
 * `txStatus` words of doc/arc.json) as a TransactionReport, and an error answer (RFC 7807
 * problem details, doc/errors.md) as its parts. Pure: nothing here asks ARC anything. An answer
 * that cannot be read throws an UnreadableAnswer saying why.
 */

/** What each of ARC's `txStatus` words means for the shop (doc/README.md, "Transaction lifecycle"). */
export const ARC_TX_STATES: Readonly<Record<string, TransactionState>> = {
  UNKNOWN: 'unknown',
  QUEUED: 'pending',
  RECEIVED: 'pending',
  STORED: 'pending',
  ANNOUNCED_TO_NETWORK: 'pending',
  REQUESTED_BY_NETWORK: 'pending',
  SENT_TO_NETWORK: 'pending',
  ACCEPTED_BY_NETWORK: 'pending',
  SEEN_IN_ORPHAN_MEMPOOL: 'pending',
  SEEN_ON_NETWORK: 'seen',
  DOUBLE_SPEND_ATTEMPTED: 'double-spend',
  MINED: 'mined',
  MINED_IN_STALE_BLOCK: 'stale',
  REJECTED: 'rejected',
}

/** A word ARC does not document (a newer status) is pending: it says nothing final. */
export const stateOfTxStatus = (txStatus: string): TransactionState =>
  Object.hasOwn(ARC_TX_STATES, txStatus) ? ARC_TX_STATES[txStatus]! : 'pending'

export class UnreadableAnswer extends Error {}

const TXID = /^[0-9a-f]{64}$/i
const HEX = /^(?:[0-9a-f]{2})+$/i

export const isTxid = (value: unknown): value is string =>
  typeof value === 'string' && TXID.test(value)

/** The report of a transaction ARC does not know (a 404: never submitted here, or forgotten). */
export const unknownReport = (txid: string): TransactionReport => ({
  txid: txid.toLowerCase(),
  state: 'unknown',
  sourceStatus: null,
  blockHash: null,
  blockHeight: null,
  merklePath: null,
  competingTxs: [],
  extraInfo: null,
  timestamp: null,
})

export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** An optional text field: absent, null and "" are none (ARC writes "" for nothing). */
function optionalText(body: Record<string, unknown>, key: string): string | null {
  const value = body[key]
  if (value === undefined || value === null || value === '') return null
  if (typeof value !== 'string') throw new UnreadableAnswer(`${key} is not text`)
  return value
}

/**
 * The merkle path, when there is one: BUMP hex (BRC-74) that parses and holds this transaction.
 * Its height is not compared with `blockHeight` (the docs' own example differs); whoever proves
 * a payment checks the path against headers at the path's height.
 */
function merklePathOf(body: Record<string, unknown>, txid: string): string | null {
  const hex = optionalText(body, 'merklePath')
  if (hex === null) return null
  if (!HEX.test(hex)) throw new UnreadableAnswer('merklePath is not hex')
  try {
    MerklePath.fromHex(hex).computeRoot(txid)
  } catch (error) {
    throw new UnreadableAnswer(`merklePath is no BUMP holding ${txid}: ${(error as Error).message}`)
  }
  return hex.toLowerCase()
}

function competingTxsOf(body: Record<string, unknown>): string[] {
  const value = body.competingTxs
  if (value === undefined || value === null) return []
  if (!Array.isArray(value) || !value.every(isTxid))
    throw new UnreadableAnswer('competingTxs is not a list of txids')
  return value.map((txid) => txid.toLowerCase())
}

/**
 * ARC's word on `txid` (a GET /v1/tx/{txid} or POST /v1/tx answer) as a report; throws an
 * UnreadableAnswer for an answer about another transaction, or one whose fields are not what
 * doc/arc.json says they are.
 */
export function reportOf(body: unknown, txid: string): TransactionReport {
  const asked = txid.toLowerCase()
  if (!isObject(body)) throw new UnreadableAnswer('the answer is not an object')
  if (!isTxid(body.txid)) throw new UnreadableAnswer('txid is missing or not a txid')
  if (body.txid.toLowerCase() !== asked)
    throw new UnreadableAnswer(`the answer is about ${body.txid}, not ${asked}`)
  const txStatus = body.txStatus
  if (typeof txStatus !== 'string' || txStatus === '')
    throw new UnreadableAnswer('txStatus is missing')
  const blockHash = optionalText(body, 'blockHash')
  if (blockHash !== null && !TXID.test(blockHash))
    throw new UnreadableAnswer('blockHash is not a block hash')
  const height = body.blockHeight
  if (
    height !== undefined &&
    height !== null &&
    !(Number.isSafeInteger(height) && (height as number) >= 0)
  )
    throw new UnreadableAnswer('blockHeight is not a height')
  return {
    txid: asked,
    state: stateOfTxStatus(txStatus),
    sourceStatus: txStatus,
    blockHash: blockHash?.toLowerCase() ?? null,
    // ARC writes 0 for a transaction in no block.
    blockHeight: typeof height === 'number' && height > 0 ? height : null,
    merklePath: merklePathOf(body, asked),
    competingTxs: competingTxsOf(body),
    extraInfo: optionalText(body, 'extraInfo'),
    timestamp: optionalText(body, 'timestamp'),
  }
}

/** An error answer's parts (RFC 7807 problem details, as doc/arc.json's ErrorFields). */
export type ArcProblem = {
  /** The code ARC gives: the body's `status` when it has one, else the HTTP status. */
  status: number
  title: string | null
  detail: string | null
  extraInfo: string | null
  /** Competing transactions, when the answer names any (a conflict on submit). */
  competingTxs: string[]
}

export function problemOf(body: unknown, httpStatus: number): ArcProblem {
  if (!isObject(body))
    return {
      status: httpStatus,
      title: null,
      detail: typeof body === 'string' && body !== '' ? body.slice(0, 200) : null,
      extraInfo: null,
      competingTxs: [],
    }
  const text = (key: string) =>
    typeof body[key] === 'string' && body[key] !== '' ? (body[key] as string) : null
  const status = body.status
  let competingTxs: string[] = []
  try {
    competingTxs = competingTxsOf(body)
  } catch {
    // A problem's competingTxs are a hint only: unreadable ones name nothing.
  }
  return {
    status: Number.isInteger(status) && (status as number) >= 400 ? (status as number) : httpStatus,
    title: text('title'),
    detail: text('detail'),
    extraInfo: text('extraInfo'),
    competingTxs,
  }
}

/** "465 Fee too low: The fees are too low (arc error 465: ...)" */
export function describeProblem(problem: ArcProblem): string {
  const what = [problem.title, problem.detail].filter(Boolean).join(': ')
  const extra = problem.extraInfo ? ` (${problem.extraInfo})` : ''
  return `${problem.status}${what ? ` ${what}` : ''}${extra}`
}
