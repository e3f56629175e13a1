import { retryAfterMs } from '../retry-after'
import type { ChainErrorKind } from '../types'
import { ChainSourceError } from '../types'
import type { RequestClass, RequestSpacer } from './spacer'
import { createRequestSpacer } from './spacer'
import type { CallStats } from './stats'
import { createCallStats, HOUR_MS } from './stats'

/**
 * The WhatsOnChain client's requests: the request budget, the Retry-After of a 429 honoured by
 * every call, retries with backoff of 5xx answers and failed connections, and lookups whose 404
 * is retried. Every endpoint family (addresses, transactions, blocks) asks through here.
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

/** One request: its method, JSON body, how its answer is read, and its share of the budget. */
export type WhatsOnChainRequest = {
  method?: 'GET' | 'POST'
  body?: unknown
  as: 'json' | 'text'
} & RequestClass

/** What the endpoint families share: the one way to ask WhatsOnChain, and the health record. */
export type RequestContext = {
  baseUrl: string
  /** Requests begun in any one second at most. */
  limitPerSecond: number
  calls: CallStats
  /** The answer's body, read as asked; throws a ChainSourceError once retries are spent. */
  request: (path: string, init: WhatsOnChainRequest) => Promise<unknown>
  /** A request whose 404 is asked again with backoff: undefined when every try answered 404. */
  lookup: (path: string, init: WhatsOnChainRequest) => Promise<unknown | undefined>
  /** ChainSource's waitForRoom: the Retry-After window, then a place in the budget. */
  waitForRoom: () => Promise<boolean>
  /** No request goes before this time (ms since the epoch): the Retry-After of the last 429. */
  throttledUntil: () => number
}

/** The options with their defaults filled in. */
type Settings = ReturnType<typeof settingsOf>

/** What every request of one client shares: its settings, budget and Retry-After window. */
type Requests = {
  settings: Settings
  calls: CallStats
  waitForSlot: RequestSpacer
  /** No request goes before this time: the Retry-After of the last 429. */
  throttle: { until: number }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function settingsOf(options: WhatsOnChainOptions) {
  const retries = options.retries ?? 2
  return {
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? 10_000,
    limitPerSecond: options.maxRequestsPerSecond ?? (options.apiKey ? 10 : 3),
    retries,
    retryDelay: options.retryDelayMs ?? ((attempt: number) => 300 * 2 ** (attempt - 1)),
    throttleRetries: options.throttleRetries ?? (retries === 0 ? 0 : 5),
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    notFoundRetries: options.notFoundRetries ?? (retries === 0 ? 0 : 3),
    notFoundDelay: options.notFoundDelayMs ?? ((attempt: number) => 1000 * 2 ** (attempt - 1)),
    dailyCap: options.dailyCap,
  }
}

export function createRequestContext(options: WhatsOnChainOptions): RequestContext {
  const settings = settingsOf(options)
  const requests: Requests = {
    settings,
    calls: createCallStats({
      dailyCap: settings.dailyCap,
      limitPerSecond: settings.limitPerSecond,
    }),
    waitForSlot: createRequestSpacer(settings.limitPerSecond),
    throttle: { until: 0 },
  }
  return {
    baseUrl: settings.baseUrl,
    limitPerSecond: settings.limitPerSecond,
    calls: requests.calls,
    request: (path, init) => request(requests, path, init),
    lookup: (path, init) => lookup(requests, path, init),
    waitForRoom: () => waitForRoom(requests),
    throttledUntil: () => requests.throttle.until,
  }
}

/**
 * Resolves once the last 429's Retry-After has passed (true when it had to wait); throws
 * without waiting when that is further away than a call may wait.
 */
async function waitOutThrottle({ settings, throttle }: Requests): Promise<boolean> {
  let waited = false
  for (;;) {
    const left = throttle.until - Date.now()
    if (left <= 0) return waited
    if (left > settings.maxRetryAfterMs)
      throw new ChainSourceError(
        `WhatsOnChain asked not to be called until ${new Date(throttle.until).toISOString()}`,
        429,
      )
    await sleep(left)
    waited = true
  }
}

async function waitForRoom(requests: Requests): Promise<boolean> {
  let waited = false
  try {
    waited = await waitOutThrottle(requests)
  } catch {
    // A window longer than a call waits: the request that follows fails at once and says so.
  }
  return (await requests.waitForSlot.waitForRoom()) || waited
}

/** One fetch, with the API key in both headers WhatsOnChain reads; the body read when ok. */
async function send(
  { baseUrl, apiKey, timeoutMs }: Settings,
  path: string,
  init: WhatsOnChainRequest,
): Promise<{ response: Response; body: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      accept: init.as === 'json' ? 'application/json' : 'text/plain',
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(apiKey ? { authorization: apiKey, 'woc-api-key': apiKey } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    signal: AbortSignal.timeout(timeoutMs),
  })
  let body: unknown
  if (response.ok) body = init.as === 'json' ? await response.json() : await response.text()
  return { response, body }
}

async function request(
  requests: Requests,
  path: string,
  init: WhatsOnChainRequest,
): Promise<unknown> {
  const { settings, calls, throttle } = requests
  const method = init.method ?? 'GET'
  let failures = 0
  let throttles = 0
  const failed = async (error: ChainSourceError, kind: ChainErrorKind) => {
    calls.noteError(kind)
    if (failures >= settings.retries) throw error
    failures += 1
    await sleep(settings.retryDelay(failures))
  }
  for (;;) {
    await waitOutThrottle(requests)
    await requests.waitForSlot(init)
    // A 429 answered to another call while this one waited for its place.
    if (Date.now() < throttle.until) continue
    calls.countCall()
    let sent: Awaited<ReturnType<typeof send>>
    try {
      sent = await send(settings, path, init)
    } catch (error) {
      await failed(
        new ChainSourceError(`WhatsOnChain ${method} ${path}: ${(error as Error).message}`),
        'network',
      )
      continue
    }
    const { response, body } = sent
    if (response.ok) return body
    const detail = (await response.text().catch(() => '')).slice(0, 200)
    const error = new ChainSourceError(
      `WhatsOnChain ${method} ${path} answered ${response.status} ${detail}`,
      response.status,
    )
    if (response.status === 429) {
      const waitMs = retryAfterMs(response.headers.get('retry-after'), Date.now())
      throttle.until = Math.max(throttle.until, Date.now() + waitMs)
      calls.noteError(waitMs > HOUR_MS || calls.dailyCapSpent() ? 'daily-cap' : 'throttled')
      if (throttles >= settings.throttleRetries || waitMs > settings.maxRetryAfterMs) throw error
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
  requests: Requests,
  path: string,
  init: WhatsOnChainRequest,
): Promise<unknown | undefined> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await request(requests, path, init)
    } catch (error) {
      if (!(error instanceof ChainSourceError && error.status === 404)) throw error
      requests.calls.noteError('not-found')
      if (attempt >= requests.settings.notFoundRetries) return undefined
      await sleep(requests.settings.notFoundDelay(attempt + 1))
    }
  }
}
