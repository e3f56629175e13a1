import { describe, expect, it } from 'vitest'

import type { Watched, WatchSettings } from './watched'
import { intervalFor, retryDelayMs, RETRY_MAX_MS } from './watched'

const now = Date.parse('2026-11-24T12:00:00Z')
const settings: WatchSettings = {
  workerFastPollMs: 500,
  workerSlowPollMs: 10_000,
  monitoringWindowHours: 24,
  graceMs: 60_000,
}
const MINUTE = 60_000

/** An order awaiting payment, placed `minutes` ago, expiring 20 minutes after it was placed. */
const awaiting = (minutes: number): Watched => ({
  id: 'o',
  address: 'a',
  createdAt: now - minutes * MINUTE,
  expiresAt: now - minutes * MINUTE + 20 * MINUTE,
  status: 'AWAITING_PAYMENT',
  funded: false,
  nextCheck: now,
  mempoolOnly: true,
  fullLookDue: false,
})

describe('how often a fresh order is looked for', () => {
  it('every poll interval for its first two minutes, then less often as it ages', () => {
    // Before, every fresh order every 0.5 s: a hundred at the pay screen asked for ten calls a
    // second, and the newest buyer's payment waited behind the oldest's polls.
    expect([0, 1.9, 2, 5, 14].map((m) => intervalFor(awaiting(m), now, settings))).toEqual([
      500, 500, 1000, 1500, 4000,
    ])
  })

  it('past 15 minutes it is an older order, looked at on its own schedule', () => {
    expect(intervalFor(awaiting(16), now, settings)).toBeGreaterThan(4000)
  })
})

describe('how long an order whose processing failed waits for its retry', () => {
  it('the slow poll interval, twice as long after each failure in a row, at most 15 minutes', () => {
    expect([1, 2, 3, 4].map((failures) => retryDelayMs(failures, 10_000))).toEqual([
      10_000, 20_000, 40_000, 80_000,
    ])
    expect(retryDelayMs(8, 10_000)).toBe(RETRY_MAX_MS)
    expect(retryDelayMs(10_000, 10_000)).toBe(15 * MINUTE)
  })
})
