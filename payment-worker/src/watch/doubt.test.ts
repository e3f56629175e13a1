import { describe, expect, it } from 'vitest'

import { DEFAULT_DOUBT_SETTINGS, WINDOW_OF_DOUBT_MS, windowOfDoubt } from './doubt'

const settings = DEFAULT_DOUBT_SETTINGS

describe('the window of doubt over an order’s life, from the worker’s own schedule', () => {
  for (const stream of ['off', 'deaf'] as const)
    for (const openOrders of [1, 100])
      it(`stays within 10 s at every moment up to the deadline, ${openOrders} open, stream ${stream}`, () => {
        const doubt = windowOfDoubt({ openOrders, stream, settings })
        expect(doubt.ordersMeasured).toBeGreaterThanOrEqual(openOrders)
        expect(doubt.maxMs).toBeLessThanOrEqual(WINDOW_OF_DOUBT_MS)
        // Within WhatsOnChain's free budget.
        expect(doubt.callsPerSecond).toBeLessThanOrEqual(settings.maxRequestsPerSecond)
      })

  it('grows past 10 s only beyond the budget (1,000 open orders), and says by how much', () => {
    const doubt = windowOfDoubt({ openOrders: 1000, stream: 'off', settings, lifetimes: 1 })
    expect(doubt.ordersMeasured).toBeGreaterThan(900)
    // 1,000 orders at 20 addresses a call and 3 calls a second: one round is 17 s at best.
    expect(doubt.maxMs).toBeGreaterThan(WINDOW_OF_DOUBT_MS)
    expect(doubt.maxMs).toBeLessThan(60_000)
    console.info(
      `window of doubt, 1,000 open orders, polling alone: widest ${(doubt.maxMs / 1000).toFixed(1)} s (${((doubt.maxMs - WINDOW_OF_DOUBT_MS) / 1000).toFixed(1)} s over), median order ${(doubt.medianMs / 1000).toFixed(1)} s`,
    )
  })

  it('is left to the guards while the stream carries payments', () => {
    const doubt = windowOfDoubt({ openOrders: 100, stream: 'carrying', settings, lifetimes: 1 })
    expect(doubt.maxMs).toBeGreaterThan(60_000)
  })
})
