import { describe, expect, it } from 'vitest'

import {
  CLOSE_WATCH_MAX_INTERVAL_MS,
  lateWatchMs,
  MONTH_WATCH_INTERVAL_MS,
  olderOrderIntervalMs,
  WEEK_WATCH_INTERVAL_MS,
} from './interval'

const HOUR = 3_600_000
const settings = { workerSlowPollMs: 10_000, monitoringWindowHours: 24 }
const now = Date.parse('2026-11-24T12:00:00Z')
/** An order created `hours` ago with the default 20-minute expiry and 60 s grace. */
const orderAged = (hours: number) => {
  const createdAt = now - hours * HOUR
  return { createdAt, deadline: createdAt + 21 * 60_000 }
}

describe('how often an older order is looked at', () => {
  it('looks within minutes on the first day (a payment 23 h late once took 36 min to show)', () => {
    // Half an hour old: a quarter of its age (7.5 min) is capped at 5 minutes.
    expect(olderOrderIntervalMs(orderAged(0.5), now, settings)).toBe(CLOSE_WATCH_MAX_INTERVAL_MS)
    expect(olderOrderIntervalMs(orderAged(0.25), now, settings)).toBe(3.75 * 60_000)
    expect(olderOrderIntervalMs(orderAged(23), now, settings)).toBe(CLOSE_WATCH_MAX_INTERVAL_MS)
    // Never faster than the slow poll, for an order just past its freshness.
    expect(olderOrderIntervalMs(orderAged(0.01), now, settings)).toBe(10_000)
  })

  it('every half hour in the first week, every three hours after', () => {
    expect(olderOrderIntervalMs(orderAged(30), now, settings)).toBe(WEEK_WATCH_INTERVAL_MS)
    expect(olderOrderIntervalMs(orderAged(6 * 24), now, settings)).toBe(WEEK_WATCH_INTERVAL_MS)
    expect(olderOrderIntervalMs(orderAged(8 * 24), now, settings)).toBe(MONTH_WATCH_INTERVAL_MS)
  })

  it('watches for the longer of the monitoring window and the late-watch period', () => {
    expect(lateWatchMs({ monitoringWindowHours: 24, lateWatchDays: 30 })).toBe(30 * 24 * HOUR)
    expect(lateWatchMs({ monitoringWindowHours: 24, lateWatchDays: 0 })).toBe(24 * HOUR)
  })
})
