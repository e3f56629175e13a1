import { describe, expect, it } from 'vitest'

import { callsOverLife, DEFAULT_LIFETIME_SETTINGS } from './lifetime'

const settings = DEFAULT_LIFETIME_SETTINGS

describe('the chain calls an order costs over its whole watch', () => {
  it('are at most 15 on WhatsOnChain with the push stream connected, at 10 and at 100 orders a day', () => {
    // Before, an order cost about 1,100 calls at 100 orders a day (1,240 at 10): every look at
    // a lone buyer's order every 0.5 s, a full look counted as two calls, and older orders'
    // looks one address per call.
    for (const ordersPerDay of [10, 100]) {
      const life = callsOverLife({ ordersPerDay, pushConnected: true, settings })
      expect(life.callsPerOrder).toBeLessThanOrEqual(15)
      // Still looked at as a guard: the stream may lose a message.
      expect(life.looksPerOrder).toBeGreaterThan(100)
    }
  })

  it('are at most 15 per paid order on the second source, which follows it until it is proven', () => {
    for (const ordersPerDay of [10, 100]) {
      const life = callsOverLife({ ordersPerDay, pushConnected: true, settings })
      expect(life.arcCallsPerPaidOrder.max).toBeLessThanOrEqual(15)
      // Submitted, then asked while it waits for its block.
      expect(life.arcCallsPerPaidOrder.mean).toBeGreaterThan(2)
    }
  })

  it('leave the proof to ARC: without it, WhatsOnChain pays one more call per paid order', () => {
    // Before, the proof asked WhatsOnChain first: 15.1 calls an order at 10 orders a day.
    const withArc = callsOverLife({ ordersPerDay: 10, pushConnected: true, settings })
    const alone = callsOverLife({ ordersPerDay: 10, pushConnected: true, settings, arc: false })
    // Every other order is paid: half a call per order placed.
    expect(alone.callsPerOrder - withArc.callsPerOrder).toBeCloseTo(0.5, 1)
    expect(alone.arcCallsPerPaidOrder.max).toBe(0)
  })

  it('read the tip once a minute and at each block while blocks are pushed', () => {
    const pushed = callsOverLife({ ordersPerDay: 10, pushConnected: true, settings })
    expect(pushed.tipCallsPerDay).toBe(1440 + 144)
  })
})
