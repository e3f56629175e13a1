import type http from 'node:http'

import type { ApiRequestRecord } from './http'
import { send } from './http'

export type SimulatorLimits = {
  /** API requests answered in any one second; more are answered 429 (no limit unless set). */
  perSecond?: number
  /** API requests answered in a UTC day; then 429 until the next day (no cap unless set). */
  perDay?: number
}

/** Seconds until the next UTC midnight (when a daily cap starts again). */
const secondsToNextDay = (now: number) => {
  const next = new Date(now)
  next.setUTCHours(24, 0, 0, 0)
  return Math.max(1, Math.ceil((next.getTime() - now) / 1000))
}

export type RateGate = ReturnType<typeof createRateGate>

/** How a 429 is answered: WhatsOnChain's plain text unless the API has its own body. */
export type RefuseRequest = (
  res: http.ServerResponse,
  retryAfterSeconds: number,
  why: string,
) => void

const refuseAsText: RefuseRequest = (res, seconds, why) =>
  send(res, 429, why, 'text', { 'retry-after': String(seconds) })

/**
 * An API's request limits, as the simulator keeps them (WhatsOnChain's, and the ARC
 * stand-in's): a 429 with Retry-After over the per-second or daily limit, or while a burst of
 * 429s is owed (`burst` takes the next one's Retry-After, in seconds), and a 429 to every
 * request that comes before the Retry-After of the last one has passed.
 */
export function createRateGate(
  startLimits: SimulatorLimits,
  burst: () => number | undefined,
  refuse: RefuseRequest = refuseAsText,
) {
  let limits: SimulatorLimits = { ...startLimits }
  /** No request is answered before this time (the Retry-After of the last 429). */
  let throttledUntil = 0
  /** Start times of the requests answered in the last second. */
  const lastSecond: number[] = []
  let day = { start: 0, count: 0 }

  const tooMany = (res: http.ServerResponse, seconds: number, why: string) => {
    throttledUntil = Math.max(throttledUntil, Date.now() + seconds * 1000)
    refuse(res, seconds, why)
  }

  return {
    setLimits(next: SimulatorLimits) {
      limits = { ...next }
    },
    /** Lets requests through again at once, whatever the last 429's Retry-After said. */
    lift() {
      throttledUntil = 0
    },
    /**
     * Whether a request may be answered now; otherwise it has been answered 429. A refused
     * request does not count against the limits.
     */
    admit(res: http.ServerResponse, record: ApiRequestRecord): boolean {
      const now = Date.now()
      if (now < throttledUntil) {
        record.insideRetryAfter = true
        refuse(res, Math.ceil((throttledUntil - now) / 1000), 'Too Many Requests')
        return false
      }
      const burstRetryAfter = burst()
      if (burstRetryAfter !== undefined) {
        tooMany(res, burstRetryAfter, 'Too Many Requests')
        return false
      }
      const today = Math.floor(now / 86_400_000) * 86_400_000
      if (day.start !== today) day = { start: today, count: 0 }
      if (limits.perDay !== undefined && day.count >= limits.perDay) {
        tooMany(res, secondsToNextDay(now), 'Daily request limit reached')
        return false
      }
      while (lastSecond.length > 0 && lastSecond[0]! <= now - 1000) lastSecond.shift()
      if (limits.perSecond !== undefined && lastSecond.length >= limits.perSecond) {
        tooMany(res, 1, 'Too Many Requests')
        return false
      }
      lastSecond.push(now)
      day.count += 1
      return true
    },
  }
}
