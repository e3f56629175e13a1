import type { ArcStatusAnswer, ArcTxStatus } from './ledger'

/**
 * The stand-in's Callbacker (bitcoin-sv/arc doc/README.md, "Callbacks" and "Callbacker";
 * internal/callbacker/sender.go; config/example_config.yaml): a transaction submitted with
 * `X-CallbackUrl` is reported to that URL at each change of its status, as a POST of one
 * `Callback` (doc/arc.json) with `Content-Type: application/json; charset=UTF-8` and, when the
 * submission gave `X-CallbackToken`, `Authorization: Bearer <token>`.
 * - Which changes: REJECTED, MINED_IN_STALE_BLOCK and MINED by default; with
 *   `X-FullStatusUpdates: true` everything from SEEN_IN_ORPHAN_MEMPOOL on (SEEN_ON_NETWORK,
 *   DOUBLE_SPEND_ATTEMPTED). ARC's metamorph compares the status's number: at least 110 (80
 *   with full updates).
 * - One receiver gets its callbacks in order, one at a time, `pauseMs` apart (ARC's `pause`,
 *   1 s). An answer outside 200-299, a failed connection or no answer within `timeoutMs` (5 s)
 *   is a failure: the same callback is sent again after the pause, up to `maxRetries` attempts
 *   (10), then dropped.
 * - A submission repeated with another URL or token registers that one too (doc/README.md,
 *   "Multiple submissions to the same ARC instance").
 * - While switched off (`setSending(false)`), no callback is sent: ARC's Callbacker down, or a
 *   receiver it cannot reach. What changed meanwhile is lost, as ARC's expiry would lose it.
 */

/** ARC's status numbers (internal/metamorph/metamorph_api: Status). */
const STATUS_RANK: Record<ArcTxStatus, number> = {
  ANNOUNCED_TO_NETWORK: 40,
  SEEN_ON_NETWORK: 90,
  DOUBLE_SPEND_ATTEMPTED: 100,
  REJECTED: 110,
  MINED_IN_STALE_BLOCK: 115,
  MINED: 120,
}
const DEFAULT_FROM = 110
const FULL_FROM = 80

export type CallbackRegistration = { url: string; token?: string; fullStatusUpdates: boolean }

/** A callback as sent, and how its last attempt went (for tests and the control routes). */
export type SentCallback = {
  url: string
  authorization: string | undefined
  body: Record<string, unknown>
  attempts: number
  /** The receiver's last answer (its HTTP status), or the error's message. */
  outcome: number | string
}

type Pending = {
  registration: CallbackRegistration
  body: Record<string, unknown>
  sent: SentCallback
}

export type ArcCallbacker = ReturnType<typeof createArcCallbacker>

export function createArcCallbacker({
  pauseMs = 1_000,
  maxRetries = 10,
  timeoutMs = 5_000,
}: { pauseMs?: number; maxRetries?: number; timeoutMs?: number } = {}) {
  const registrations = new Map<string, CallbackRegistration[]>()
  const queues = new Map<string, Pending[]>()
  const busy = new Set<string>()
  const timers = new Set<NodeJS.Timeout>()
  const sent: SentCallback[] = []
  const state = { sending: true, closed: false }

  const later = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        resolve()
      }, ms)
      timers.add(timer)
    })

  const attempt = async (p: Pending): Promise<boolean> => {
    p.sent.attempts += 1
    try {
      const response = await fetch(p.registration.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=UTF-8',
          ...(p.registration.token ? { authorization: `Bearer ${p.registration.token}` } : {}),
        },
        body: JSON.stringify(p.body),
        signal: AbortSignal.timeout(timeoutMs),
      })
      await response.arrayBuffer().catch(() => undefined)
      p.sent.outcome = response.status
      return response.status >= 200 && response.status < 300
    } catch (error) {
      p.sent.outcome = (error as Error).message
      return false
    }
  }

  /** Sends one receiver's callbacks in order, each until it succeeds or its attempts are spent. */
  const drain = async (url: string) => {
    if (busy.has(url)) return
    busy.add(url)
    try {
      const queue = queues.get(url)!
      while (queue.length > 0 && !state.closed) {
        const next = queue[0]!
        const ok = await attempt(next)
        if (ok || next.sent.attempts >= maxRetries) queue.shift()
        if (queue.length > 0) await later(pauseMs)
      }
    } finally {
      busy.delete(url)
    }
  }

  return {
    /** Reports `txid`'s status changes to `registration` from now on (once per URL and token). */
    register(txid: string, registration: CallbackRegistration) {
      const list = registrations.get(txid) ?? []
      const same = list.find((r) => r.url === registration.url && r.token === registration.token)
      if (same) same.fullStatusUpdates ||= registration.fullStatusUpdates
      else list.push({ ...registration })
      registrations.set(txid, list)
    },
    /** A followed transaction's status changed: its callbacks are queued. */
    changed(answer: ArcStatusAnswer) {
      if (!state.sending || state.closed) return
      const rank = STATUS_RANK[answer.txStatus]
      for (const registration of registrations.get(answer.txid) ?? []) {
        if (rank < (registration.fullStatusUpdates ? FULL_FROM : DEFAULT_FROM)) continue
        const body = callbackBody(answer)
        const record: SentCallback = {
          url: registration.url,
          authorization: registration.token ? `Bearer ${registration.token}` : undefined,
          body,
          attempts: 0,
          outcome: 'queued',
        }
        sent.push(record)
        if (sent.length > 1_000) sent.shift()
        const queue = queues.get(registration.url) ?? []
        queue.push({ registration, body, sent: record })
        queues.set(registration.url, queue)
        void drain(registration.url)
      }
    },
    setSending(on: boolean) {
      state.sending = on
    },
    sending: () => state.sending,
    /** The callbacks queued or sent so far (the last 1,000), oldest first. */
    sent: () => [...sent],
    close() {
      state.closed = true
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
    },
  }
}

/** A Callback as doc/arc.json's examples write it: the block fields only for a block. */
function callbackBody(answer: ArcStatusAnswer): Record<string, unknown> {
  return {
    timestamp: new Date().toISOString(),
    txid: answer.txid,
    txStatus: answer.txStatus,
    ...(answer.extraInfo ? { extraInfo: answer.extraInfo } : {}),
    ...(answer.competingTxs?.length ? { competingTxs: answer.competingTxs } : {}),
    ...(answer.merklePath ? { merklePath: answer.merklePath } : {}),
    ...(answer.blockHash ? { blockHash: answer.blockHash, blockHeight: answer.blockHeight } : {}),
  }
}
