import { describe, expect, it } from 'vitest'

import type { Watched, WatchSettings } from './watched'
import {
  afterBlock,
  askFullLook,
  firstLookAt,
  intervalFor,
  lookEnded,
  nextCheckAfterLook,
  retryDelayMs,
  RETRY_MAX_MS,
} from './watched'

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

describe('how often an order is looked at while the push stream is connected', () => {
  it('every five minutes while fresh, ten with money on the way, older ones six times less often', () => {
    // Before, the stream changed nothing: a lone buyer's order was looked for every 0.5 s.
    expect(intervalFor(awaiting(1), now, settings, true)).toBe(5 * MINUTE)
    // Still at most until its deadline: the look that expires it comes on time.
    expect(intervalFor(awaiting(17), now, settings, true)).toBe(4 * MINUTE)
    expect(intervalFor({ ...awaiting(3), status: 'PAYMENT_DETECTED' }, now, settings, true)).toBe(
      10 * MINUTE,
    )
    const expired = { ...awaiting(180), status: 'EXPIRED' }
    expect(intervalFor(expired, now, settings, true)).toBe(
      6 * intervalFor(expired, now, settings, false),
    )
  })

  it('looks at a new order first one interval on when the stream was connected before it', () => {
    const order = awaiting(0)
    expect(firstLookAt(order, now, settings, undefined)).toBe(now)
    expect(firstLookAt(order, now, settings, now - 10_000)).toBe(now + 5 * MINUTE)
    // Placed before the stream connected: what the stream carried before then is unknown.
    expect(firstLookAt(order, now, settings, now + 1)).toBe(now)
  })

  it('has a block looked for at once by orders with money on the way, by fresh ones at their next look', () => {
    const detected = { ...awaiting(3), funded: true, nextCheck: now + 9 * MINUTE }
    const fresh = { ...awaiting(3), nextCheck: now + 4 * MINUTE }
    afterBlock(detected, now, settings, true)
    afterBlock(fresh, now, settings, true)
    expect([detected.fullLookDue, detected.nextCheck]).toEqual([true, now])
    expect([fresh.fullLookDue, fresh.nextCheck]).toEqual([true, now + 4 * MINUTE])
    // Polling alone, the fresh order is looked at now as well.
    const polled = { ...awaiting(3), nextCheck: now + 4_000 }
    afterBlock(polled, now, settings, false)
    expect([polled.fullLookDue, polled.nextCheck]).toEqual([true, now])
  })

  it('looks at once at money judged just after a block that found its order still unpaid', () => {
    // The stream carried the payment, then the block; the block was read first, while the
    // order was still fresh and unpaid (its next look kept), then the push was judged.
    const order = { ...awaiting(3), nextCheck: now + 4 * MINUTE }
    afterBlock(order, now, settings, true)
    expect(order.nextCheck).toBe(now + 4 * MINUTE)
    Object.assign(order, { status: 'PAYMENT_DETECTED', funded: true })
    expect(intervalFor(order, now, settings, true)).toBe(0)
  })

  it('looks at once at money on the way whose full look an earlier block already asked for', () => {
    // Paid after a block that found it fresh (its full look due, but not before its next
    // look): the next block must still have it looked at now, or it waits ten minutes.
    const detected = {
      ...awaiting(3),
      status: 'PAYMENT_DETECTED',
      funded: true,
      fullLookDue: true,
      nextCheck: now + 9 * MINUTE,
    }
    afterBlock(detected, now, settings, true)
    expect(detected.nextCheck).toBe(now)
  })
})

describe('a full look asked for while a look is under way', () => {
  const detected = (): Watched => ({ ...awaiting(1), status: 'PAYMENT_DETECTED', funded: false })

  it('is not answered by the look that began before it: due, and looked at now, after it', () => {
    // Before, the look already under way when a payment was put in doubt cleared the request
    // and scheduled its next look one interval on (5 minutes with the stream): its history was
    // read before the competing spend, so the evidence waited all that while.
    const w = detected()
    const lookBegan = now - 2_000
    askFullLook(w, now, { atOnce: true })
    lookEnded(w, 'all', lookBegan)
    expect(w.fullLookDue).toBe(true)
    expect(nextCheckAfterLook(w, now + 10, settings, true)).toBe(now + 10)
  })

  it('is answered by a full look begun after it, and the schedule comes back', () => {
    const w = detected()
    askFullLook(w, now, { atOnce: true })
    lookEnded(w, 'all', now + 1)
    expect([w.fullLookDue, w.lookNowAskedAt]).toEqual([false, undefined])
    expect(nextCheckAfterLook(w, now + 500, settings, true)).toBe(
      now + 500 + intervalFor(w, now + 500, settings, true),
    )
  })

  it('is not answered by a mempool-only look, whenever it began', () => {
    const w = detected()
    askFullLook(w, now)
    lookEnded(w, 'unconfirmed', now + 1)
    expect(w.fullLookDue).toBe(true)
  })

  it('a block during a full look asks for another (the look read the chain before the block)', () => {
    const w = { ...detected(), funded: true }
    afterBlock(w, now, settings)
    lookEnded(w, 'all', now - 1)
    expect(w.fullLookDue).toBe(true)
    expect(intervalFor(w, now, settings)).toBe(0)
  })
})
