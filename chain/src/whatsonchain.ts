import { Transaction } from '@bsv/sdk'

import type {
  AddressHistoriesDetailed,
  AddressTransaction,
  ChainErrorKind,
  ChainSource,
  ChainSourceStats,
  HistoryScope,
  Outpoint,
  SpentBy,
} from './types'
import { ChainSourceError, MAX_ADDRESSES_PER_CALL, mergeHistories } from './types'

/**
 * The WhatsOnChain API client (the real chain source; in test mode the same client talks to the
 * local simulator). It reads everything and trusts nothing once:
 * - At most `maxRequestsPerSecond` requests begin in any second (3 without a key).
 * - Every history is read to its end. A bulk answer holds at most 20 confirmed items (100
 *   unconfirmed, 1,000 of each from /addresses/history/all), and WhatsOnChain's docs do not say
 *   whether the cap counts per address or per request: an address cut with a `nextPageToken`
 *   is read on through the single-address endpoint with that token, an address at the cap is
 *   read again alone, and when a whole answer reaches its cap, the addresses that look complete
 *   are asked again where the cap is larger (history/all, then one by one).
 * - An address whose entry carries an error (WhatsOnChain writes one per address) is left out
 *   and reported; the rest of the batch comes back.
 * - A lookup's 404 (/tx/hash, /tx/{txid}/hex) is retried with backoff: WhatsOnChain answers 404
 *   while a just-mined transaction moves between its mempool and block indexes, and when a
 *   lookup fails inside it. A transaction is 'unknown' only after the retries.
 * - A 429's Retry-After is honoured: no request goes inside the window, whichever call it
 *   belongs to. A window longer than `maxRetryAfterMs` (the daily cap) fails calls at once.
 * - 5xx answers and failed connections are retried with backoff.
 * - The API key goes in `Authorization` (what WhatsOnChain's server and TAAL's docs read) and in
 *   `woc-api-key` (what older clients send).
 * - Calls are counted against the daily cap and the per-second limit; stats() shows them with
 *   the last hour's errors and the addresses that keep failing.
 */

export type WhatsOnChainOptions = {
  /** e.g. https://api.whatsonchain.com/v1/bsv/main */
  baseUrl: string
  apiKey?: string
  maxRequestsPerSecond?: number
  timeoutMs?: number
  /** Retries of a 5xx answer or a failed connection (2 by default). */
  retries?: number
  /** Backoff before retry n (1-based). */
  retryDelayMs?: (attempt: number) => number
  /**
   * 429 answers waited out, each for its Retry-After, before a call fails: 5 by default, none
   * when `retries` is 0 (a client that retries nothing, as the tests' clients do).
   */
  throttleRetries?: number
  /**
   * The longest Retry-After a call waits for (60 s by default). A longer one (a spent daily
   * cap) fails the call at once, and every call until it has passed, without asking.
   */
  maxRetryAfterMs?: number
  /** Retries of a lookup's 404: 3 by default, none when `retries` is 0. */
  notFoundRetries?: number
  /** Wait before 404 retry n (1-based): 1, 2, 4 s by default. */
  notFoundDelayMs?: (attempt: number) => number
  /** The plan's daily request cap, shown by stats() beside the calls made today. */
  dailyCap?: number
}

type Kind = 'confirmed' | 'unconfirmed'
type Endpoint = Kind | 'all'
/** One address's history (or one half of it) in an answer. */
type HistoryPart = { result?: unknown; error?: unknown; nextPageToken?: unknown }

/** Raw transactions kept in memory (a few hundred bytes each). */
const TX_CACHE_ENTRIES = 20_000
/** Items a bulk answer holds at most, by endpoint (WhatsOnChain's Address docs). */
const PAGE_CAPS: Record<Endpoint, number> = { confirmed: 20, unconfirmed: 100, all: 1000 }
/** Items asked for per single-address page (the most the endpoint gives). */
const SINGLE_PAGE_LIMIT = 1000
/** Pages read for one address before it counts as failed (100,000 transactions). */
const MAX_PAGES = 100
const HOUR_MS = 3_600_000
const TXID = /^[0-9a-f]{64}$/i

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A Retry-After header (seconds, or an HTTP date) in ms; a missing or odd one is a second. */
function retryAfterMs(header: string | null, now: number): number {
  if (header === null || header.trim() === '') return 1000
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const at = Date.parse(header)
  return Number.isNaN(at) ? 1000 : Math.max(0, at - now)
}

/** A page's transactions, or undefined when the page cannot be read. */
function readTransactions(result: unknown, kind: Kind): AddressTransaction[] | undefined {
  // WhatsOnChain answers `null` for an address with nothing to list.
  if (result === null || result === undefined) return []
  if (!Array.isArray(result)) return undefined
  const transactions: AddressTransaction[] = []
  for (const item of result as { tx_hash?: unknown; height?: unknown }[]) {
    const txid = item?.tx_hash
    if (typeof txid !== 'string' || !TXID.test(txid)) return undefined
    const height = item.height
    transactions.push({
      txid: txid.toLowerCase(),
      height: kind === 'confirmed' && typeof height === 'number' && height > 0 ? height : null,
    })
  }
  return transactions
}

/** Oldest first: in blocks by height, then the mempool; otherwise as WhatsOnChain listed them. */
const oldestFirst = (transactions: AddressTransaction[]) =>
  transactions
    .map((t, i) => ({ t, i }))
    .sort(
      (a, b) =>
        (a.t.height ?? Number.MAX_SAFE_INTEGER) - (b.t.height ?? Number.MAX_SAFE_INTEGER) ||
        a.i - b.i,
    )
    .map(({ t }) => t)

/** What a bulk spent answer says of one output. */
function spentByOf(entry: unknown): SpentBy {
  if (!entry || typeof entry !== 'object') return 'unknown'
  const { error, spentIn } = entry as { error?: unknown; spentIn?: { txid?: unknown } | null }
  if (error !== undefined && error !== '') return 'unknown'
  if (spentIn === undefined || spentIn === null) return 'unspent'
  return typeof spentIn.txid === 'string' && TXID.test(spentIn.txid)
    ? spentIn.txid.toLowerCase()
    : 'unknown'
}

/**
 * At most `maxPerSecond` requests begin in any one second (WhatsOnChain's limit is per second,
 * not a fixed gap): a request goes at once while the last second has room, so the transaction
 * fetched right after the look that found a payment no longer waits a third of a second behind
 * it (decision 013); a steady stream is still held to the limit. The window is longer
 * than a second by `marginMs`, for requests that reach the server closer together than they
 * left. A limit that is not a whole number spaces every request evenly, as before.
 *
 * Background requests (the worker's looks at older orders while buyers wait) take at most all
 * but two of each second's requests (one without a key), so the rest have two: a buyer's payment
 * is looked for, and its transaction fetched, without waiting behind thousands of late looks.
 * They are counted apart, so the others coming steadily (a buyer's look every half second)
 * never keep them out of their share (a late look would wait for an empty second, which never
 * comes, and the worker's pass with it).
 *
 * Requests waiting for a free place go in order of class, then of asking: urgent ones (the
 * transaction of a payment a look has just found) first, background ones last: at 10,000
 * watched orders a buyer's transaction would otherwise wait behind an older look asked before it.
 *
 * `waitForRoom` waits until a request could begin, and keeps that place for the next one (not
 * a background one) for `holdMs`: the worker decides what to ask only once it can ask, so an
 * order placed while it waited is in the call (a call planned before a wait of most of a second
 * would go without the order placed meanwhile, which would wait for the next).
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

export function createWhatsOnChainClient(options: WhatsOnChainOptions): ChainSource &
  Required<Pick<ChainSource, 'getAddressHistoriesDetailed' | 'getSpentBy' | 'stats'>> & {
    baseUrl: string
  } {
  const baseUrl = options.baseUrl.replace(/\/$/, '')
  const limitPerSecond = options.maxRequestsPerSecond ?? (options.apiKey ? 10 : 3)
  const waitForSlot = createRequestSpacer(limitPerSecond)
  const retries = options.retries ?? 2
  const retryDelay = options.retryDelayMs ?? ((attempt: number) => 300 * 2 ** (attempt - 1))
  const throttleRetries = options.throttleRetries ?? (retries === 0 ? 0 : 5)
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000
  const notFoundRetries = options.notFoundRetries ?? (retries === 0 ? 0 : 3)
  const notFoundDelay = options.notFoundDelayMs ?? ((attempt: number) => 1000 * 2 ** (attempt - 1))
  const txCache = new Map<string, string>()
  const blockTimes = new Map<number, Date>()

  // What the owner's health view reads (stats()).
  /** No request goes before this time: the Retry-After of the last 429. */
  let throttledUntil = 0
  const recentCalls: number[] = []
  let day = { start: 0, count: 0 }
  const errors: { at: number; kind: ChainErrorKind }[] = []
  const failing = new Map<string, { reason: string; since: Date; failures: number }>()

  const dayOf = (now: number) => Math.floor(now / 86_400_000) * 86_400_000
  const countCall = () => {
    const now = Date.now()
    while (recentCalls.length > 0 && recentCalls[0]! <= now - 1000) recentCalls.shift()
    recentCalls.push(now)
    if (day.start !== dayOf(now)) day = { start: dayOf(now), count: 0 }
    day.count += 1
  }
  const noteError = (kind: ChainErrorKind) => {
    const now = Date.now()
    while (errors.length > 0 && (errors[0]!.at <= now - HOUR_MS || errors.length > 100_000))
      errors.shift()
    errors.push({ at: now, kind })
  }
  const noteFailing = (address: string, reason: string) => {
    const known = failing.get(address)
    failing.delete(address)
    failing.set(address, {
      reason,
      since: known?.since ?? new Date(),
      failures: (known?.failures ?? 0) + 1,
    })
    // The longest-failing go first once the list is long (addresses no longer watched).
    if (failing.size > 1000) failing.delete(failing.keys().next().value!)
  }

  /**
   * Resolves once the last 429's Retry-After has passed (true when it had to wait); throws
   * without waiting when that is further away than a call may wait.
   */
  async function waitOutThrottle(): Promise<boolean> {
    let waited = false
    for (;;) {
      const left = throttledUntil - Date.now()
      if (left <= 0) return waited
      if (left > maxRetryAfterMs)
        throw new ChainSourceError(
          `WhatsOnChain asked not to be called until ${new Date(throttledUntil).toISOString()}`,
          429,
        )
      await sleep(left)
      waited = true
    }
  }

  async function request(
    path: string,
    init: { method?: 'GET' | 'POST'; body?: unknown; as: 'json' | 'text' } & RequestClass,
  ): Promise<unknown> {
    const method = init.method ?? 'GET'
    let failures = 0
    let throttles = 0
    const failed = async (error: ChainSourceError, kind: ChainErrorKind) => {
      noteError(kind)
      if (failures >= retries) throw error
      failures += 1
      await sleep(retryDelay(failures))
    }
    for (;;) {
      await waitOutThrottle()
      await waitForSlot(init)
      // A 429 answered to another call while this one waited for its place.
      if (Date.now() < throttledUntil) continue
      countCall()
      let response: Response
      let body: unknown
      try {
        response = await fetch(`${baseUrl}${path}`, {
          method,
          headers: {
            accept: init.as === 'json' ? 'application/json' : 'text/plain',
            ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(options.apiKey
              ? { authorization: options.apiKey, 'woc-api-key': options.apiKey }
              : {}),
          },
          body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        })
        if (response.ok) body = init.as === 'json' ? await response.json() : await response.text()
      } catch (error) {
        await failed(
          new ChainSourceError(`WhatsOnChain ${method} ${path}: ${(error as Error).message}`),
          'network',
        )
        continue
      }
      if (response.ok) return body
      const detail = (await response.text().catch(() => '')).slice(0, 200)
      const error = new ChainSourceError(
        `WhatsOnChain ${method} ${path} answered ${response.status} ${detail}`,
        response.status,
      )
      if (response.status === 429) {
        const waitMs = retryAfterMs(response.headers.get('retry-after'), Date.now())
        throttledUntil = Math.max(throttledUntil, Date.now() + waitMs)
        const capSpent =
          waitMs > HOUR_MS || (options.dailyCap !== undefined && day.count >= options.dailyCap)
        noteError(capSpent ? 'daily-cap' : 'throttled')
        if (throttles >= throttleRetries || waitMs > maxRetryAfterMs) throw error
        throttles += 1
        continue
      }
      if (response.status >= 500) {
        await failed(error, 'server')
        continue
      }
      // Other client errors do not get better by asking again now (a lookup judges its 404).
      throw error
    }
  }

  /**
   * A lookup that WhatsOnChain may answer 404 for a while: asked again with backoff; undefined
   * when every try answered 404.
   */
  async function lookup(
    path: string,
    init: Parameters<typeof request>[1],
  ): Promise<unknown | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await request(path, init)
      } catch (error) {
        if (!(error instanceof ChainSourceError && error.status === 404)) throw error
        noteError('not-found')
        if (attempt >= notFoundRetries) return undefined
        await sleep(notFoundDelay(attempt + 1))
      }
    }
  }

  /** One look at up to 20 addresses, every page read, failing addresses set apart. */
  async function readHistories(
    addresses: readonly string[],
    scope: HistoryScope | 'confirmed',
    background: boolean,
  ): Promise<AddressHistoriesDetailed> {
    if (addresses.length > MAX_ADDRESSES_PER_CALL)
      throw new RangeError(`At most ${MAX_ADDRESSES_PER_CALL} addresses per call.`)
    const unique = [...new Set(addresses)]
    const kinds: Kind[] = scope === 'all' ? ['unconfirmed', 'confirmed'] : [scope]
    const found = new Map(unique.map((a) => [a, { unconfirmed: [], confirmed: [] }])) as Map<
      string,
      Record<Kind, AddressTransaction[]>
    >
    const failedWith = new Map<string, string>()
    /** Single-address reads still to make: on from a token, or from the first page. */
    const readOn: { address: string; kind: Kind; token?: string }[] = []
    const fail = (address: string, reason: string) => {
      if (!failedWith.has(address)) failedWith.set(address, reason)
    }
    const add = (address: string, kind: Kind, transactions: AddressTransaction[]) =>
      found.get(address)![kind].push(...transactions)

    /**
     * A bulk look; returns the addresses whose answer looks complete in an answer that reached
     * its cap (it may have been cut without saying so).
     */
    const bulkLook = async (endpoint: Endpoint, asked: string[], halves: Kind[]) => {
      const path = endpoint === 'all' ? '/addresses/history/all' : `/addresses/${endpoint}/history`
      const body = await request(path, {
        method: 'POST',
        body: { addresses: asked },
        as: 'json',
        background,
      })
      if (!Array.isArray(body)) {
        noteError('bad-answer')
        throw new ChainSourceError(`WhatsOnChain ${path}: unexpected answer`)
      }
      const cap = PAGE_CAPS[endpoint]
      const total: Record<Kind, number> = { confirmed: 0, unconfirmed: 0 }
      const complete: Record<Kind, string[]> = { confirmed: [], unconfirmed: [] }
      for (const address of asked) {
        const entry = (body as ({ address?: unknown } & HistoryPart)[]).find(
          (e) => e?.address === address,
        )
        // An address the answer left out is read alone.
        if (!entry || typeof entry !== 'object') {
          for (const kind of halves) readOn.push({ address, kind })
          continue
        }
        if (typeof entry.error === 'string' && entry.error !== '') {
          fail(address, entry.error)
          continue
        }
        for (const kind of halves) {
          const part = (endpoint === 'all' ? (entry as Record<Kind, unknown>)[kind] : entry) as
            HistoryPart | undefined
          if (!part || typeof part !== 'object') {
            readOn.push({ address, kind })
            continue
          }
          if (part.error !== undefined && part.error !== '') {
            fail(address, String(part.error))
            continue
          }
          const transactions = readTransactions(part.result, kind)
          if (!transactions) {
            noteError('bad-answer')
            fail(address, `WhatsOnChain ${path}: unreadable history`)
            continue
          }
          add(address, kind, transactions)
          total[kind] += transactions.length
          if (typeof part.nextPageToken === 'string' && part.nextPageToken !== '')
            readOn.push({ address, kind, token: part.nextPageToken })
          else if (transactions.length >= cap) readOn.push({ address, kind })
          else complete[kind].push(address)
        }
      }
      return halves.flatMap((kind) =>
        total[kind] >= cap
          ? complete[kind].filter((a) => !failedWith.has(a)).map((address) => ({ address, kind }))
          : [],
      )
    }

    /** One address's history of one kind, page by page from a token (or the start). */
    const readPages = async ({ address, kind, token }: (typeof readOn)[number]) => {
      let next = token
      for (let page = 0; !failedWith.has(address); page += 1) {
        if (page >= MAX_PAGES) return fail(address, `more than ${MAX_PAGES} pages of history`)
        const query = new URLSearchParams({ limit: String(SINGLE_PAGE_LIMIT) })
        if (next) query.set('token', next)
        let body: unknown
        try {
          body = await request(
            `/address/${encodeURIComponent(address)}/${kind}/history?${query.toString()}`,
            { as: 'json', background },
          )
        } catch (error) {
          // Throttling is the whole source's state, not this address's.
          if (!(error instanceof ChainSourceError) || error.status === 429) throw error
          return fail(address, error.message)
        }
        const part = (body ?? {}) as HistoryPart
        if (part.error !== undefined && part.error !== '') return fail(address, String(part.error))
        const transactions = readTransactions(part.result, kind)
        if (!transactions) {
          noteError('bad-answer')
          return fail(address, `WhatsOnChain ${kind} history of ${address}: unreadable page`)
        }
        add(address, kind, transactions)
        next =
          typeof part.nextPageToken === 'string' && part.nextPageToken !== ''
            ? part.nextPageToken
            : undefined
        if (!next) return
      }
    }

    if (unique.length > 0) {
      const endpoint: Endpoint = scope === 'all' ? 'all' : scope
      let unsure = await bulkLook(endpoint, unique, kinds)
      // Asked again where the cap is larger: one call for all of them.
      if (unsure.length > 0 && endpoint !== 'all')
        unsure = await bulkLook(
          'all',
          unsure.map((u) => u.address),
          kinds,
        )
      readOn.push(...unsure)
      for (const read of readOn) await readPages(read)
    }

    const histories = new Map<string, AddressTransaction[]>()
    for (const address of unique) {
      const reason = failedWith.get(address)
      if (reason !== undefined) {
        noteError('address')
        noteFailing(address, reason)
        continue
      }
      failing.delete(address)
      const { unconfirmed, confirmed } = found.get(address)!
      const merged = mergeHistories(
        new Map([[address, unconfirmed]]),
        new Map([[address, confirmed]]),
      )
      histories.set(address, oldestFirst(merged.get(address) ?? []))
    }
    return { histories, failed: failedWith }
  }

  return {
    baseUrl,
    requestsPerSecond: limitPerSecond,
    async waitForRoom() {
      let waited = false
      try {
        waited = await waitOutThrottle()
      } catch {
        // A window longer than a call waits: the request that follows fails at once and says so.
      }
      return (await waitForSlot.waitForRoom()) || waited
    },
    async getTipHeight() {
      const info = (await request('/chain/info', { as: 'json' })) as { blocks?: unknown }
      if (typeof info?.blocks !== 'number')
        throw new ChainSourceError('WhatsOnChain chain/info: no block height')
      return info.blocks
    },
    async getAddressHistories(addresses, scope = 'all', { background = false } = {}) {
      return (await readHistories(addresses, scope, background)).histories
    },
    getAddressHistoriesDetailed: (addresses, scope = 'all', { background = false } = {}) =>
      readHistories(addresses, scope, background),
    async getTransactionStatus(txid) {
      if (!TXID.test(txid)) throw new ChainSourceError(`Not a txid: ${txid}`)
      const info = (await lookup(`/tx/hash/${txid}`, { as: 'json' })) as
        { blockheight?: unknown } | undefined
      if (info === undefined) return 'unknown'
      return typeof info?.blockheight === 'number' && info.blockheight > 0 ? 'confirmed' : 'mempool'
    },
    async getBlockTime(height) {
      if (!Number.isSafeInteger(height) || height < 0)
        throw new ChainSourceError(`Not a block height: ${height}`)
      const cached = blockTimes.get(height)
      if (cached) return cached
      const header = (await lookup(`/block/height/${height}`, { as: 'json' })) as
        { time?: unknown } | undefined
      if (header === undefined)
        throw new ChainSourceError(`WhatsOnChain block ${height}: not found`, 404)
      if (typeof header?.time !== 'number' || !Number.isFinite(header.time))
        throw new ChainSourceError(`WhatsOnChain block ${height}: no time`)
      const time = new Date(header.time * 1000)
      if (blockTimes.size >= TX_CACHE_ENTRIES) blockTimes.delete(blockTimes.keys().next().value!)
      blockTimes.set(height, time)
      return time
    },
    async getTransactionHex(txid) {
      if (!TXID.test(txid)) throw new ChainSourceError(`Not a txid: ${txid}`)
      const cached = txCache.get(txid)
      if (cached) return cached
      const answer = await lookup(`/tx/${txid}/hex`, { as: 'text', urgent: true })
      if (answer === undefined)
        throw new ChainSourceError(`WhatsOnChain tx ${txid}: not found`, 404)
      const hex = String(answer).trim()
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
    async getSpentBy(outpoints: readonly Outpoint[]) {
      const answers = new Map<string, SpentBy>()
      const asked: Outpoint[] = []
      for (const { txid, vout } of outpoints) {
        if (typeof txid === 'string' && TXID.test(txid) && Number.isSafeInteger(vout) && vout >= 0)
          asked.push({ txid, vout })
        else answers.set(`${txid}:${vout}`, 'unknown')
      }
      // WhatsOnChain's bulk spent lookup takes at most 20 outputs.
      for (let i = 0; i < asked.length; i += MAX_ADDRESSES_PER_CALL) {
        const chunk = asked.slice(i, i + MAX_ADDRESSES_PER_CALL)
        let body: unknown
        try {
          body = await request('/utxos/spent', {
            method: 'POST',
            body: { utxos: chunk },
            as: 'json',
          })
        } catch (error) {
          // No answer says nothing about these outputs.
          if (!(error instanceof ChainSourceError)) throw error
          body = []
        }
        if (!Array.isArray(body)) noteError('bad-answer')
        const entries = (Array.isArray(body) ? body : []) as { utxo?: Partial<Outpoint> }[]
        for (const { txid, vout } of chunk) {
          const entry = entries.find(
            (e) =>
              typeof e?.utxo?.txid === 'string' &&
              e.utxo.txid.toLowerCase() === txid.toLowerCase() &&
              e.utxo.vout === vout,
          )
          answers.set(`${txid}:${vout}`, spentByOf(entry))
        }
      }
      return answers
    },
    async broadcast(txHex) {
      const body = await request('/tx/raw', { method: 'POST', body: { txhex: txHex }, as: 'json' })
      if (typeof body !== 'string' || !/^[0-9a-f]{64}$/i.test(body))
        throw new ChainSourceError('WhatsOnChain broadcast: unexpected answer')
      return body
    },
    stats(): ChainSourceStats {
      const now = Date.now()
      const errorsByKind: Partial<Record<ChainErrorKind, number>> = {}
      for (const { at, kind } of errors)
        if (at > now - HOUR_MS) errorsByKind[kind] = (errorsByKind[kind] ?? 0) + 1
      return {
        callsToday: day.start === dayOf(now) ? day.count : 0,
        capPerDay: options.dailyCap ?? null,
        callsLastSecond: recentCalls.filter((t) => t > now - 1000).length,
        limitPerSecond,
        throttledUntil: throttledUntil > now ? new Date(throttledUntil) : null,
        errorsByKind,
        failingAddresses: [...failing].map(([address, f]) => ({ address, ...f })),
      }
    },
  }
}
