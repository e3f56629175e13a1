import { isObject, isTxid } from './report'

/**
 * ARC's callbacks (doc/README.md, "Callbacks" and "Callbacker"): a transaction submitted with
 * `X-CallbackUrl` (and `X-CallbackToken`, sent back as `Authorization: Bearer <token>`) is
 * reported by a POST to that URL whenever its status changes: at REJECTED, MINED_IN_STALE_BLOCK
 * and MINED by default, from SEEN_IN_ORPHAN_MEMPOOL on with `X-FullStatusUpdates: true` (which
 * is what brings DOUBLE_SPEND_ATTEMPTED). The body is one `Callback` (doc/arc.json:
 * `timestamp`, `txid` and `txStatus` required; `extraInfo`, `competingTxs`, `merklePath`,
 * `blockHash`, `blockHeight` optional), or with `X-CallbackBatch: true` a `BatchedCallbacks`
 * `{ count, callbacks }` of at most 50. Any answer outside 200-299 is a failure ARC retries
 * (10 attempts, a pause of 1 s between sends to one receiver, given up after 24 hours).
 */

/** The headers that register a callback on `POST /v1/tx`. */
export type ArcCallbackRegistration = {
  /** Where ARC posts: the shop's receiver, e.g. https://shop.example/api/arc/callback */
  url: string
  /** Sent back by ARC as `Authorization: Bearer <token>`. */
  token: string
}

/** What a callback says: the transaction and its new status word. */
export type ArcCallback = { txid: string; txStatus: string; timestamp: string }

/** ARC sends at most this many callbacks in one batch. */
export const ARC_CALLBACK_BATCH_MAX = 50

export class UnreadableCallback extends Error {}

/** The headers `POST /v1/tx` carries to register `registration` (single callbacks, all statuses). */
export function callbackHeaders(registration: ArcCallbackRegistration): Record<string, string> {
  return {
    'X-CallbackUrl': registration.url,
    'X-CallbackToken': registration.token,
    'X-FullStatusUpdates': 'true',
  }
}

function callbackOf(value: unknown, where: string): ArcCallback {
  if (!isObject(value)) throw new UnreadableCallback(`${where} is not an object`)
  if (!isTxid(value.txid)) throw new UnreadableCallback(`${where}: txid is missing or not a txid`)
  if (typeof value.txStatus !== 'string' || !/^[A-Z_]{1,40}$/.test(value.txStatus))
    throw new UnreadableCallback(`${where}: txStatus is missing or not a status word`)
  if (typeof value.timestamp !== 'string' || value.timestamp === '')
    throw new UnreadableCallback(`${where}: timestamp is missing`)
  return {
    txid: value.txid.toLowerCase(),
    txStatus: value.txStatus,
    timestamp: value.timestamp.slice(0, 40),
  }
}

/**
 * The callbacks in a body ARC posted: one Callback, or a batch. Throws an UnreadableCallback
 * saying what is wrong with any other body. The optional fields are not read: a callback only
 * says that a transaction's status changed, and the worker asks ARC for the rest.
 */
export function readArcCallbacks(body: unknown): ArcCallback[] {
  if (isObject(body) && 'callbacks' in body) {
    const { callbacks, count } = body
    if (callbacks === null && count === 0) return []
    if (!Array.isArray(callbacks)) throw new UnreadableCallback('callbacks is not a list')
    if (callbacks.length > ARC_CALLBACK_BATCH_MAX)
      throw new UnreadableCallback(`a batch holds at most ${ARC_CALLBACK_BATCH_MAX} callbacks`)
    if (count !== callbacks.length)
      throw new UnreadableCallback('count is not the number of callbacks')
    return callbacks.map((c, i) => callbackOf(c, `callbacks[${i}]`))
  }
  return [callbackOf(body, 'the callback')]
}
