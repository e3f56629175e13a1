import { readRawTransaction } from '../raw-tx'
import type { ChainSourceStats, TransactionReport, TransactionSource } from '../types'
import { ChainSourceError } from '../types'
import { callbackHeaders } from './callback'
import type { ArcAnswer, ArcOptions } from './http'
import { createArcRequests, describeBody } from './http'
import {
  describeProblem,
  isObject,
  isTxid,
  problemOf,
  reportOf,
  UnreadableAnswer,
  unknownReport,
} from './report'

export type { ArcOptions } from './http'
export type { ArcCallback, ArcCallbackRegistration } from './callback'
export { readArcCallbacks, UnreadableCallback } from './callback'
export { ARC_TX_STATES, stateOfTxStatus } from './report'

/**
 * The client of ARC, the BSV transaction processor (bitcoin-sv/arc, doc/arc.json): a second
 * source, independent of WhatsOnChain, that follows a payment by its txid once the shop hands
 * it the transaction. ARC cannot list an address's transactions and knows only what was
 * submitted to it, so the worker submits a payment another source has seen, then asks by txid.
 * - getTransaction: `GET /v1/tx/{txid}`. ARC's `txStatus` becomes the report's `state`
 *   (ARC_TX_STATES; a word the docs do not list is 'pending', kept in `sourceStatus`); a 404 is
 *   'unknown'. The answer must be about the txid asked, `blockHeight` a height (0: no block),
 *   `blockHash` a hash, `merklePath` BUMP hex that holds the txid, `competingTxs` txids; any
 *   other answer throws a ChainSourceError (counted as 'bad-answer').
 * - submit: `POST /v1/tx` with `{ rawTx }` and `X-WaitFor: STORED`. The shop submits only
 *   transactions already broadcast, so it waits for nothing from the network: STORED answers
 *   once ARC has the transaction in its store (so the next GET knows it) instead of holding the
 *   request up to X-MaxTimeout for SEEN_ON_NETWORK. The report comes from ARC's answer, which
 *   must be about the transaction sent. With `callback` set, the POST registers it
 *   (X-CallbackUrl, X-CallbackToken, X-FullStatusUpdates; callback.ts): ARC then posts each of
 *   the transaction's status changes there.
 * - submitAll: `POST /v1/txs` with a list of `{ rawTx }`, up to ARC_SUBMIT_BATCH_MAX a call,
 *   the same headers. Each entry of ARC's list is read as `submit` reads its answer: a report,
 *   or that transaction's refusal. ARC answers a transaction it has already with its status now
 *   (doc/README.md, "Multiple submissions to the same ARC instance"), with its block and merkle
 *   path once mined, so the worker asks about many payments in one call this way.
 * - ARC's refusals on submit (doc/errors.md: 460 not extended format, 461 scripts, 462 inputs,
 *   463 malformed, 464 outputs, 465 fee, 467-469 BEEF, 471-475) throw a ChainSourceError whose
 *   `status` is ARC's code (the body's `status`, else the HTTP status; doc/arc.json also prints
 *   an error body under HTTP 200). They are not 'rejected' reports: ARC then does not follow the
 *   transaction, which the network may still take (a fee below this ARC's policy, parents it
 *   cannot find), so they say nothing of the payment. The one exception is 466 (conflict: "the
 *   network has already seen a tx which spends the same utxo"), evidence of a double-spend
 *   attempt: an answer naming the competing transactions (a `txStatus`, or `competingTxs`) is
 *   a 'double-spend' report; a bare 466, as the docs print it, throws with status 466.
 * - `Authorization: Bearer <apiKey>` when a key is set. A 401 or 403 throws at once ("ARC
 *   refused the API key (401)"), never retried.
 * - A 429's Retry-After (seconds or an HTTP date) is honoured: no request goes inside the
 *   window, whichever call it belongs to; a window longer than `maxRetryAfterMs` fails calls at
 *   once. 5xx answers and failed connections are retried with backoff. At most
 *   `maxRequestsPerSecond` requests begin in any second (the WhatsOnChain client's spacer).
 * - Calls and errors are counted: stats() has the WhatsOnChain client's shape (no addresses).
 *
 * http.ts asks (key, budget, retries, Retry-After); report.ts reads the answers.
 */

export type ArcClient = TransactionSource &
  Required<Pick<TransactionSource, 'submitAll'>> & {
    stats: () => ChainSourceStats
    baseUrl: string
  }

/**
 * Transactions in one `POST /v1/txs`. ARC's docs set no number; its API server limits a
 * request's body, and a hundred payments (a few hundred bytes each) stay far below it.
 */
export const ARC_SUBMIT_BATCH_MAX = 100

const hasTxStatus = (body: unknown) => isObject(body) && typeof body.txStatus === 'string'

/** The txid of raw transaction hex; a RangeError for what is no payment's transaction. */
function txidOfHex(txHex: string): string {
  const tx = readRawTransaction(txHex)
  if (!tx || tx.inputs.length === 0 || tx.outputs.length === 0)
    throw new RangeError('What is submitted to ARC must be a raw transaction in hex')
  return tx.id('hex')
}

export function createArcClient(options: ArcOptions): ArcClient {
  const http = createArcRequests(options)

  /** ARC's word on `txid` as a report; an answer it cannot read is counted and thrown. */
  const read = (body: unknown, txid: string, what: string): TransactionReport => {
    try {
      return reportOf(body, txid)
    } catch (error) {
      if (!(error instanceof UnreadableAnswer)) throw error
      http.calls.noteError('bad-answer')
      throw new ChainSourceError(
        `ARC's answer to ${what} cannot be read: ${error.message} ${describeBody(body)}`.trim(),
      )
    }
  }

  /** An answer that is neither a status nor a refusal: unreadable. */
  const unreadable = (what: string, { status, body }: ArcAnswer) => {
    http.calls.noteError('bad-answer')
    return new ChainSourceError(
      `ARC's answer to ${what} cannot be read: ${status} ${describeBody(body)}`.trim(),
      status,
    )
  }

  const submitHeaders = {
    'X-WaitFor': 'STORED',
    ...(options.callback ? callbackHeaders(options.callback) : {}),
  }

  /** ARC's answer to a submission of `txid` (alone, or an entry of a list) as its report. */
  const submitted = (answer: ArcAnswer, txid: string, what: string): TransactionReport => {
    if (answer.status < 300 && hasTxStatus(answer.body)) return read(answer.body, txid, what)
    const problem = problemOf(answer.body, answer.status)
    if (problem.status === 466) {
      if (hasTxStatus(answer.body)) return read(answer.body, txid, what)
      if (problem.competingTxs.length > 0)
        return {
          ...unknownReport(txid),
          state: 'double-spend',
          sourceStatus: '466',
          competingTxs: problem.competingTxs,
          extraInfo: problem.extraInfo ?? problem.detail,
        }
    }
    if (problem.status < 400) throw unreadable(what, answer)
    throw new ChainSourceError(
      `ARC refused transaction ${txid}: ${describeProblem(problem)}`,
      problem.status,
    )
  }

  return {
    name: 'arc',
    baseUrl: http.baseUrl,

    async getTransaction(txid, options) {
      if (!isTxid(txid)) throw new RangeError(`Not a txid: ${String(txid)}`)
      const id = txid.toLowerCase()
      const what = `GET /v1/tx/${id}`
      const answer = await http.request(`/v1/tx/${id}`, { urgent: options?.urgent })
      if (answer.status === 404) {
        http.calls.noteError('not-found')
        return unknownReport(id)
      }
      if (answer.status < 300 && hasTxStatus(answer.body)) return read(answer.body, id, what)
      const problem = problemOf(answer.body, answer.status)
      if (problem.status < 400) throw unreadable(what, answer)
      throw new ChainSourceError(`ARC ${what} answered ${describeProblem(problem)}`, problem.status)
    },

    async submit(txHex) {
      const txid = txidOfHex(txHex)
      const answer = await http.request('/v1/tx', {
        method: 'POST',
        body: { rawTx: txHex },
        headers: submitHeaders,
      })
      return submitted(answer, txid, `POST /v1/tx (${txid})`)
    },

    async submitAll(txHexes, submitOptions) {
      const txids = txHexes.map(txidOfHex)
      const outcomes: (TransactionReport | ChainSourceError)[] = []
      for (let from = 0; from < txHexes.length; from += ARC_SUBMIT_BATCH_MAX) {
        const hexes = txHexes.slice(from, from + ARC_SUBMIT_BATCH_MAX)
        const what = `POST /v1/txs (${hexes.length} transactions)`
        const answer = await http.request('/v1/txs', {
          method: 'POST',
          body: hexes.map((rawTx) => ({ rawTx })),
          headers: submitHeaders,
          urgent: submitOptions?.urgent,
        })
        // doc/arc.json: one entry per transaction in the order sent, each a status or a
        // refusal; its examples print the list itself, its schema (TransactionResponses) the
        // list under `transactions`. Anything else is about the whole request.
        const list = Array.isArray(answer.body)
          ? (answer.body as unknown[])
          : isObject(answer.body) && Array.isArray(answer.body.transactions)
            ? (answer.body.transactions as unknown[])
            : null
        if (answer.status >= 300 || list === null) {
          const problem = problemOf(answer.body, answer.status)
          if (problem.status < 400) throw unreadable(what, answer)
          throw new ChainSourceError(
            `ARC ${what} answered ${describeProblem(problem)}`,
            problem.status,
          )
        }
        if (list.length !== hexes.length)
          throw unreadable(`${what} (${list.length} answers)`, answer)
        for (const [i, body] of list.entries()) {
          const txid = txids[from + i]!
          try {
            outcomes.push(submitted({ status: 200, body }, txid, `${what}, ${txid}`))
          } catch (error) {
            if (!(error instanceof ChainSourceError)) throw error
            outcomes.push(error)
          }
        }
      }
      return outcomes
    },

    stats: () => http.calls.snapshot(http.throttledUntil()),
  }
}
