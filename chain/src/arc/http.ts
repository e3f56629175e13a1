import { retryAfterMs } from '../retry-after'
import type { ArcCallbackRegistration } from './callback'
import type { ChainErrorKind } from '../types'
import { ChainSourceError } from '../types'
import { createRequestSpacer } from '../whatsonchain/spacer'
import type { CallStats } from '../whatsonchain/stats'
import { createCallStats, HOUR_MS } from '../whatsonchain/stats'

/**
 * The ARC client's requests: the Bearer key, the per-second budget, the Retry-After of a 429
 * honoured by every call, and retries with backoff of 5xx answers and failed connections. Every
 * other answer (2xx, 404, ARC's 4xx and 46x) goes back to the caller with its body, which
 * judges it; a 401 or 403 throws at once, never retried (a refused key stays refused).
 */

export type ArcOptions = {
  /** Where ARC's API starts, without /v1: e.g. https://arc.taal.com */
  baseUrl: string
  /** Sent as `Authorization: Bearer <apiKey>`; instances that are open need none. */
  apiKey?: string
  /** Requests begun in any one second, at most. */
  maxRequestsPerSecond: number
  /** The plan's daily request cap, when known (shown by stats() beside the calls made today). */
  dailyCap?: number
  /** How long one request may take (10 s by default). */
  fetchTimeoutMs?: number
  /** Retries of a 5xx answer or a failed connection (2 by default). */
  retries?: number
  /** Backoff before retry n (1-based): 300, 600 ms by default. */
  retryDelayMs?: (attempt: number) => number
  /** 429 answers waited out, each for its Retry-After, before a call fails (3; none with 0 retries). */
  throttleRetries?: number
  /**
   * The longest Retry-After a call waits for (60 s by default). A longer one fails the call at
   * once, and every call until it has passed, without asking.
   */
  maxRetryAfterMs?: number
  /**
   * Where ARC reports each submitted transaction's status changes (callback.ts): sent with every
   * `POST /v1/tx`. None: the shop only asks.
   */
  callback?: ArcCallbackRegistration
}

/** ARC's answer to one request: its HTTP status and its body (JSON when it parses, else text). */
export type ArcAnswer = { status: number; body: unknown }

export type ArcRequest = {
  method?: 'GET' | 'POST'
  /** Ahead of the other requests waiting for the budget. */
  urgent?: boolean
  body?: unknown
  headers?: Record<string, string>
}

/** What the client's methods share: the one way to ask ARC, and the health record. */
export type ArcRequests = {
  baseUrl: string
  limitPerSecond: number
  calls: CallStats
  /** ARC's answer; throws a ChainSourceError on a refused key, or once retries are spent. */
  request: (path: string, init?: ArcRequest) => Promise<ArcAnswer>
  /** No request goes before this time (ms since the epoch): the Retry-After of the last 429. */
  throttledUntil: () => number
}

type Settings = ReturnType<typeof settingsOf>

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function settingsOf(options: ArcOptions) {
  if (!(options.maxRequestsPerSecond > 0))
    throw new RangeError('ARC needs a request limit above 0 per second')
  const retries = options.retries ?? 2
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    limitPerSecond: options.maxRequestsPerSecond,
    dailyCap: options.dailyCap,
    timeoutMs: options.fetchTimeoutMs ?? 10_000,
    retries,
    retryDelay: options.retryDelayMs ?? ((attempt: number) => 300 * 2 ** (attempt - 1)),
    throttleRetries: options.throttleRetries ?? (retries === 0 ? 0 : 3),
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
  }
}

export function createArcRequests(options: ArcOptions): ArcRequests {
  const settings = settingsOf(options)
  const calls = createCallStats({
    dailyCap: settings.dailyCap,
    limitPerSecond: settings.limitPerSecond,
  })
  const waitForSlot = createRequestSpacer(settings.limitPerSecond)
  const throttle = { until: 0 }

  /** Resolves once the last 429's window has passed; throws when it is longer than a call waits. */
  const waitOutThrottle = async () => {
    for (;;) {
      const left = throttle.until - Date.now()
      if (left <= 0) return
      if (left > settings.maxRetryAfterMs)
        throw new ChainSourceError(
          `ARC asked not to be called until ${new Date(throttle.until).toISOString()}`,
          429,
        )
      await sleep(left)
    }
  }

  const request = async (path: string, init: ArcRequest = {}): Promise<ArcAnswer> => {
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
      await waitOutThrottle()
      await waitForSlot({ urgent: init.urgent })
      // A 429 answered to another call while this one waited for its place.
      if (Date.now() < throttle.until) continue
      calls.countCall()
      let answer: ArcAnswer & { retryAfter: string | null }
      try {
        answer = await send(settings, path, init)
      } catch (error) {
        await failed(
          new ChainSourceError(`ARC ${method} ${path}: ${(error as Error).message}`),
          'network',
        )
        continue
      }
      const { status } = answer
      if (status === 401 || status === 403)
        throw new ChainSourceError(
          settings.apiKey
            ? `ARC refused the API key (${status})`
            : `ARC refused a request without an API key (${status})`,
          status,
        )
      if (status === 429) {
        const now = Date.now()
        const waitMs = retryAfterMs(answer.retryAfter, now)
        throttle.until = Math.max(throttle.until, now + waitMs)
        calls.noteError(waitMs > HOUR_MS || calls.dailyCapSpent() ? 'daily-cap' : 'throttled')
        if (throttles >= settings.throttleRetries || waitMs > settings.maxRetryAfterMs)
          throw new ChainSourceError(`ARC ${method} ${path} answered 429 (too many requests)`, 429)
        throttles += 1
        continue
      }
      if (status >= 500) {
        await failed(
          new ChainSourceError(
            `ARC ${method} ${path} answered ${status} ${describeBody(answer.body)}`.trim(),
            status,
          ),
          'server',
        )
        continue
      }
      return { status, body: answer.body }
    }
  }

  return {
    baseUrl: settings.baseUrl,
    limitPerSecond: settings.limitPerSecond,
    calls,
    request,
    throttledUntil: () => throttle.until,
  }
}

/** One fetch, with the Bearer key when there is one; the body read whatever the status. */
async function send(
  { baseUrl, apiKey, timeoutMs }: Settings,
  path: string,
  init: ArcRequest,
): Promise<ArcAnswer & { retryAfter: string | null }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      accept: 'application/json',
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      ...init.headers,
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    signal: AbortSignal.timeout(timeoutMs),
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    // Not JSON (a gateway's page, a plain-text error): kept as text for the message.
  }
  return { status: response.status, body, retryAfter: response.headers.get('retry-after') }
}

/** A short account of an answer's body for an error message. */
export function describeBody(body: unknown): string {
  if (body === undefined) return ''
  return (typeof body === 'string' ? body : JSON.stringify(body)).slice(0, 200)
}
