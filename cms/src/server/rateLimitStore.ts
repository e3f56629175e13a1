import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit'
import type { Payload } from 'payload'

import { countRateLimitHit, resetRateLimit, sweepRateLimits } from '../db/rateLimits'

/** Ended windows are swept away at most this often per process. */
const SWEEP_EVERY_MS = 10 * 60_000

/**
 * express-rate-limit's counters in the shop's database (the rate-limits collection), so every
 * web process behind the proxy enforces one limit per client: with the default memory store
 * each process would count on its own, and two processes would let twice as much through.
 * `prefix` keeps each limit's keys apart.
 */
export class DatabaseRateLimitStore implements Store {
  readonly localKeys = false
  private windowMs = 60_000
  private lastSweep = Date.now()

  constructor(
    private readonly payload: Payload,
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    this.sweepNowAndThen()
    const { hits, resetAt } = await countRateLimitHit({
      payload: this.payload,
      key: `${this.prefix}:${key}`,
      windowMs: this.windowMs,
      delta: 1,
    })
    return { totalHits: hits, resetTime: resetAt }
  }

  async decrement(key: string): Promise<void> {
    await countRateLimitHit({
      payload: this.payload,
      key: `${this.prefix}:${key}`,
      windowMs: this.windowMs,
      delta: -1,
    })
  }

  async resetKey(key: string): Promise<void> {
    await resetRateLimit({ payload: this.payload, key: `${this.prefix}:${key}` })
  }

  private sweepNowAndThen() {
    const now = Date.now()
    if (now - this.lastSweep < SWEEP_EVERY_MS) return
    this.lastSweep = now
    void sweepRateLimits({ payload: this.payload, before: new Date(now) }).catch((error) =>
      this.payload.logger.warn({ err: error }, 'sweeping ended rate-limit windows failed'),
    )
  }
}
