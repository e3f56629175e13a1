import { Transaction } from '@bsv/sdk'

import type { AddressTransaction, ChainSource } from './types'
import { ChainSourceError, MAX_ADDRESSES_PER_CALL, mergeHistories } from './types'

/**
 * The WhatsOnChain API client (the real chain source; in test mode the same client talks to the
 * local simulator). At most `maxRequestsPerSecond` requests begin in any second (3 without a key),
 * retried with backoff on 429, 5xx and network errors, and carry `woc-api-key` when set.
 */

export type WhatsOnChainOptions = {
  /** e.g. https://api.whatsonchain.com/v1/bsv/main */
  baseUrl: string
  apiKey?: string
  maxRequestsPerSecond?: number
  timeoutMs?: number
  retries?: number
  /** Backoff before retry n (1-based). */
  retryDelayMs?: (attempt: number) => number
}

type HistoryEntry = {
  address: string
  result?: { tx_hash: string; height?: number }[]
  error?: string
}

/** Raw transactions kept in memory (a few hundred bytes each). */
const TX_CACHE_ENTRIES = 20_000

/**
 * At most `maxPerSecond` requests begin in any one second (WhatsOnChain's limit is per second,
 * not a fixed gap): a request goes at once while the last second has room, so the transaction
 * fetched right after the look that found a payment no longer waits a third of a second behind
 * it (issue 18, detection); a steady stream is still held to the limit. The window is longer
 * than a second by `marginMs`, for requests that reach the server closer together than they
 * left. A limit that is not a whole number spaces every request evenly, as before.
 *
 * Background requests (the worker's looks at older orders while buyers wait) take at most all
 * but two of each second's requests (one without a key), so the rest have two: a buyer's payment
 * is looked for, and its transaction fetched, without waiting behind thousands of late looks.
 * They are counted apart, so the others coming steadily (a buyer's look every half second)
 * never keep them out of their share (issue 18: a late look waited for an empty second, which
 * never came, and the worker's pass with it).
 *
 * Requests waiting for a free place go in order of class, then of asking: urgent ones (the
 * transaction of a payment a look has just found) first, background ones last (issue 18: at
 * 10,000 watched orders a buyer's transaction waited behind an older look asked before it).
 *
 * `waitForRoom` waits until a request could begin, and keeps that place for the next one (not
 * a background one) for `holdMs`: the worker decides what to ask only once it can ask, so an
 * order placed while it waited is in the call (issue 18: a call planned before a wait of most
 * of a second went without the order placed meanwhile, and the order waited for the next).
 */
export function createRequestSpacer(
  maxPerSecond: number,
  { marginMs = 50, holdMs = 200 } = {},
): RequestSpacer {
  const perWindow = Number.isInteger(maxPerSecond) ? maxPerSecond : 1
  const windowMs = (1000 * perWindow) / maxPerSecond + marginMs
  const backgroundPerWindow = Math.max(1, perWindow - 2)
  /** When the requests of the last window began, oldest first: all, and background ones. */
  const starts: number[] = []
  const backgroundStarts: number[] = []
  /** How long until one more of `limit` fits in the window `begun` describes (0: now). */
  const waitFor = (begun: number[], limit: number, now: number) => {
    while (begun.length > 0 && begun[0]! <= now - windowMs) begun.shift()
    return begun.length < limit ? 0 : begun[begun.length - limit]! + windowMs - now
  }
  /** Until when a place is kept for the next request that is not a background one. */
  let heldUntil = 0
  type Waiter = { rank: number; background: boolean; hold: boolean; go: () => void }
  /** Requests waiting, by rank then in the order they asked. */
  const waiting: Waiter[] = []
  let timer: NodeJS.Timeout | undefined

  /** Lets waiting requests go while there is room; sets a timer for when there is more. */
  const admit = () => {
    clearTimeout(timer)
    timer = undefined
    while (waiting.length > 0) {
      const now = Date.now()
      const held = heldUntil > now ? 1 : 0
      const wait = waitFor(starts, perWindow, now)
      // A background request also needs room in its own share, and leaves a kept place alone;
      // the others may pass it.
      const backgroundWait = Math.max(
        waitFor(backgroundStarts, backgroundPerWindow, now),
        held
          ? Math.min(
              perWindow > held ? waitFor(starts, perWindow - held, now) : Infinity,
              heldUntil - now,
            )
          : 0,
      )
      const next = waiting.findIndex((w) => !w.background || backgroundWait <= 0)
      const until = next < 0 ? Math.max(wait, backgroundWait) : wait
      if (until > 0) {
        timer = setTimeout(admit, until)
        return
      }
      const [admitted] = waiting.splice(next, 1)
      if (admitted!.hold) {
        heldUntil = now + holdMs
      } else {
        starts.push(now)
        if (admitted!.background) backgroundStarts.push(now)
        else heldUntil = 0
      }
      admitted!.go()
    }
  }

  /** Resolves once the request may go: true when it had to wait, false when it went at once. */
  const enqueue = async (rank: number, background: boolean, hold: boolean) => {
    let atOnce = false
    await new Promise<void>((go) => {
      const at = waiting.findIndex((w) => w.rank > rank)
      waiting.splice(at < 0 ? waiting.length : at, 0, { rank, background, hold, go })
      admit()
      atOnce = !waiting.some((w) => w.go === go)
    })
    return !atOnce
  }

  const waitForSlot = async ({ background = false, urgent = false }: RequestClass = {}) => {
    await enqueue(urgent ? 0 : background ? 2 : 1, background, false)
  }
  return Object.assign(waitForSlot, { waitForRoom: () => enqueue(1, false, true) })
}

export type RequestSpacer = ((requestClass?: RequestClass) => Promise<void>) & {
  /**
   * Resolves when a request could begin, keeping that place for the next one a while: true
   * when it had to wait for it.
   */
  waitForRoom: () => Promise<boolean>
}

/** Which share of the request budget a request draws on, and its place when requests wait. */
export type RequestClass = { background?: boolean; urgent?: boolean }

export function createWhatsOnChainClient(
  options: WhatsOnChainOptions,
): ChainSource & { baseUrl: string } {
  const baseUrl = options.baseUrl.replace(/\/$/, '')
  const waitForSlot = createRequestSpacer(options.maxRequestsPerSecond ?? (options.apiKey ? 10 : 3))
  const retries = options.retries ?? 2
  const retryDelay = options.retryDelayMs ?? ((attempt: number) => 300 * 2 ** (attempt - 1))
  const txCache = new Map<string, string>()
  const blockTimes = new Map<number, Date>()

  async function request(
    path: string,
    init: { method?: string; body?: unknown; as: 'json' | 'text' } & RequestClass,
  ): Promise<unknown> {
    let lastError: unknown
    for (let attempt = 0; attempt <= retries; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, retryDelay(attempt)))
      await waitForSlot(init)
      try {
        const response = await fetch(`${baseUrl}${path}`, {
          method: init.method ?? 'GET',
          headers: {
            accept: init.as === 'json' ? 'application/json' : 'text/plain',
            ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(options.apiKey ? { 'woc-api-key': options.apiKey } : {}),
          },
          body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        })
        if (response.ok) return init.as === 'json' ? await response.json() : await response.text()
        const detail = (await response.text().catch(() => '')).slice(0, 200)
        lastError = new ChainSourceError(
          `WhatsOnChain ${init.method ?? 'GET'} ${path} answered ${response.status} ${detail}`,
          response.status,
        )
        // Client errors other than throttling will not get better by retrying.
        if (response.status < 500 && response.status !== 429) throw lastError
      } catch (error) {
        if (
          error instanceof ChainSourceError &&
          error.status &&
          error.status < 500 &&
          error.status !== 429
        )
          throw error
        lastError =
          error instanceof ChainSourceError
            ? error
            : new ChainSourceError(`WhatsOnChain ${path}: ${(error as Error).message}`)
      }
    }
    throw lastError
  }

  async function bulkHistory(
    kind: 'confirmed' | 'unconfirmed',
    addresses: readonly string[],
    background: boolean,
  ): Promise<HistoryEntry[]> {
    const body = await request(`/addresses/${kind}/history`, {
      method: 'POST',
      body: { addresses },
      as: 'json',
      background,
    })
    if (!Array.isArray(body))
      throw new ChainSourceError(`WhatsOnChain ${kind} history: unexpected answer`)
    return body as HistoryEntry[]
  }

  return {
    baseUrl,
    waitForRoom: waitForSlot.waitForRoom,
    async getTipHeight() {
      const info = (await request('/chain/info', { as: 'json' })) as { blocks?: unknown }
      if (typeof info?.blocks !== 'number')
        throw new ChainSourceError('WhatsOnChain chain/info: no block height')
      return info.blocks
    },
    async getAddressHistories(addresses, scope = 'all', { background = false } = {}) {
      if (addresses.length > MAX_ADDRESSES_PER_CALL)
        throw new RangeError(`At most ${MAX_ADDRESSES_PER_CALL} addresses per call.`)
      const looks: Map<string, AddressTransaction[]>[] = []
      // Unconfirmed first: a transaction mined between the two calls is then seen at least once.
      for (const kind of ['unconfirmed', 'confirmed'] as const) {
        if (addresses.length === 0 || (scope !== 'all' && scope !== kind)) continue
        const look = new Map<string, AddressTransaction[]>()
        for (const entry of await bulkHistory(kind, addresses, background)) {
          if (entry.error)
            throw new ChainSourceError(`WhatsOnChain history for ${entry.address}: ${entry.error}`)
          if (!addresses.includes(entry.address)) continue
          look.set(
            entry.address,
            (entry.result ?? []).map((tx) => ({
              txid: tx.tx_hash,
              height: typeof tx.height === 'number' && tx.height > 0 ? tx.height : null,
            })),
          )
        }
        looks.push(look)
      }
      return mergeHistories(new Map(addresses.map((a) => [a, []])), ...looks.toReversed())
    },
    async getTransactionStatus(txid) {
      if (!/^[0-9a-f]{64}$/i.test(txid)) throw new ChainSourceError(`Not a txid: ${txid}`)
      try {
        const info = (await request(`/tx/hash/${txid}`, { as: 'json' })) as {
          blockheight?: unknown
          confirmations?: unknown
        }
        return typeof info?.blockheight === 'number' && info.blockheight > 0
          ? 'confirmed'
          : 'mempool'
      } catch (error) {
        if (error instanceof ChainSourceError && error.status === 404) return 'unknown'
        throw error
      }
    },
    async getBlockTime(height) {
      if (!Number.isSafeInteger(height) || height < 0)
        throw new ChainSourceError(`Not a block height: ${height}`)
      const cached = blockTimes.get(height)
      if (cached) return cached
      const header = (await request(`/block/height/${height}`, { as: 'json' })) as {
        time?: unknown
      }
      if (typeof header?.time !== 'number' || !Number.isFinite(header.time))
        throw new ChainSourceError(`WhatsOnChain block ${height}: no time`)
      const time = new Date(header.time * 1000)
      if (blockTimes.size >= TX_CACHE_ENTRIES) blockTimes.delete(blockTimes.keys().next().value!)
      blockTimes.set(height, time)
      return time
    },
    async getTransactionHex(txid) {
      if (!/^[0-9a-f]{64}$/i.test(txid)) throw new ChainSourceError(`Not a txid: ${txid}`)
      const cached = txCache.get(txid)
      if (cached) return cached
      const hex = String(await request(`/tx/${txid}/hex`, { as: 'text', urgent: true })).trim()
      if (!/^[0-9a-f]+$/i.test(hex)) throw new ChainSourceError(`WhatsOnChain tx ${txid}: not hex`)
      // A truncated or wrong answer must never be cached (or counted): the bytes must hash to
      // the txid asked for.
      let parsedId: string | undefined
      try {
        parsedId = Transaction.fromHex(hex).id('hex')
      } catch {
        parsedId = undefined
      }
      if (parsedId !== txid.toLowerCase())
        throw new ChainSourceError(`WhatsOnChain tx ${txid}: the answer is not that transaction`)
      // The oldest entry goes first (a Map keeps insertion order): a busy shop's recent
      // payments, looked at again for their confirmations, stay cached.
      if (txCache.size >= TX_CACHE_ENTRIES) txCache.delete(txCache.keys().next().value!)
      txCache.set(txid, hex)
      return hex
    },
    async broadcast(txHex) {
      const body = await request('/tx/raw', { method: 'POST', body: { txhex: txHex }, as: 'json' })
      if (typeof body !== 'string' || !/^[0-9a-f]{64}$/i.test(body))
        throw new ChainSourceError('WhatsOnChain broadcast: unexpected answer')
      return body
    },
  }
}
