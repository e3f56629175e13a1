import { describe, expect, it } from 'vitest'

import { MAX_ADDRESSES_PER_CALL } from '@shop/chain'

import { batchCost, planBatches } from './plan'
import type { Watched, WatchSettings } from './watched'

const now = Date.parse('2026-11-24T12:00:00Z')
const settings: WatchSettings = {
  workerFastPollMs: 2_000,
  workerSlowPollMs: 10_000,
  monitoringWindowHours: 24,
  graceMs: 60_000,
}
let next = 0

/** A fresh order created a minute ago, due now, waiting in the mempool only. */
function fresh(extra: Partial<Watched> = {}): Watched {
  next += 1
  return {
    id: `fresh-${next}`,
    address: `addr-${next}`,
    createdAt: now - 60_000,
    expiresAt: now + 19 * 60_000,
    status: 'AWAITING_PAYMENT',
    funded: false,
    nextCheck: now,
    mempoolOnly: true,
    fullLookDue: false,
    ...extra,
  }
}

/** An order expired two hours ago, due now (a late payment may come). */
function older(extra: Partial<Watched> = {}): Watched {
  return fresh({
    id: `older-${next + 1}`,
    createdAt: now - 3 * 3_600_000,
    expiresAt: now - 2 * 3_600_000,
    status: 'EXPIRED',
    ...extra,
  })
}

const ids = (plan: { orders: Watched[] }[]) => plan.map((b) => b.orders.map((w) => w.id))
const cost = (plan: { scope: 'all' | 'unconfirmed' }[]) =>
  plan.reduce((n, b) => n + batchCost(b), 0)

describe('the batch plan of a pass: the calls and their looks', () => {
  it('plans nothing when nothing is due', () => {
    const later = fresh({ nextCheck: now + 1_000 })
    expect(planBatches({ watched: [later], now, pass: 1, callsPerPass: 6, settings })).toEqual({
      plan: [],
      backlog: false,
    })
  })

  it('asks about 20 addresses per call, mempool only for fresh orders waiting for money', () => {
    const orders = Array.from({ length: 45 }, () => fresh())
    const { plan, backlog } = planBatches({
      watched: orders,
      now,
      pass: 1,
      callsPerPass: 6,
      settings,
    })
    expect(plan.map((b) => [b.scope, b.orders.length])).toEqual([
      ['unconfirmed', MAX_ADDRESSES_PER_CALL],
      ['unconfirmed', MAX_ADDRESSES_PER_CALL],
      ['unconfirmed', 5],
    ])
    expect(backlog).toBe(false)
  })

  it('fills a call for fresh orders with the fresh ones due soonest, in the same look', () => {
    const due = fresh()
    const soon = Array.from({ length: 25 }, (_, i) => fresh({ nextCheck: now + 100 + i }))
    const fullLook = fresh({ nextCheck: now + 1, fullLookDue: true })
    const expired = older({ nextCheck: now + 1 })
    const { plan } = planBatches({
      watched: [...soon.toReversed(), fullLook, expired, due],
      now,
      pass: 1,
      callsPerPass: 6,
      settings,
    })
    // Before, one call for the one due order: a hundred buyers' polls drifted into a call each.
    expect(ids(plan)).toEqual([[due.id, ...soon.slice(0, 19).map((w) => w.id)]])
  })

  it('gives a full look (one call, as a mempool look) after a block, to detected orders and to older ones', () => {
    const afterBlock = fresh({ fullLookDue: true })
    const detected = fresh({ status: 'PAYMENT_DETECTED' })
    const waiting = fresh()
    const expired = older()
    const { plan } = planBatches({
      watched: [afterBlock, detected, waiting, expired],
      now,
      pass: 1,
      callsPerPass: 10,
      settings,
    })
    expect(plan).toEqual([
      { scope: 'all', orders: [afterBlock, detected] },
      { scope: 'unconfirmed', orders: [waiting] },
      { scope: 'all', orders: [expired] },
    ])
    expect(cost(plan)).toBe(3)
  })
})

describe('the batch plan of a pass: calls filled', () => {
  it('fills a call for older orders with older orders due within ten minutes, the soonest first', () => {
    const due = older({ id: 'due', nextCheck: now - 1_000 })
    const soon = Array.from({ length: 25 }, (_, i) =>
      older({ id: `soon-${i}`, nextCheck: now + (i + 1) * 20_000 }),
    )
    const later = older({ id: 'later', nextCheck: now + 11 * 60_000 })
    const waiting = fresh({ nextCheck: now + 1_000 })
    const { plan } = planBatches({
      watched: [later, ...soon.toReversed(), due, waiting],
      now,
      pass: 1,
      callsPerPass: 3,
      settings,
    })
    // Before, one call for the one due order: at a hundred orders a day older orders' looks
    // went one address per call.
    expect(ids(plan)).toEqual([['due', ...soon.slice(0, 19).map((w) => w.id)]])
  })
})

describe('the batch plan of a pass: who goes first', () => {
  it('looks for the youngest fresh order first when more are due than the budget holds', () => {
    // Overdue: thirty orders a few minutes old, and twenty after a block (a full look each).
    const waiting = Array.from({ length: 30 }, (_, i) =>
      fresh({ createdAt: now - 300_000 + i, nextCheck: now - 2_000, lookedAt: now - 2_500 }),
    )
    const afterBlock = Array.from({ length: 20 }, (_, i) =>
      fresh({
        createdAt: now - 200_000 + i,
        nextCheck: now - 3_000,
        fullLookDue: true,
        lookedAt: now - 3_500,
      }),
    )
    // Placed a moment ago, its buyer at the pay screen: due now, never looked at.
    const newest = fresh({ createdAt: now - 50, nextCheck: now })
    const { plan } = planBatches({
      watched: [...afterBlock, ...waiting, newest],
      now,
      pass: 1,
      callsPerPass: 1,
      settings,
    })
    // Before, it waited behind every overdue order: the full looks first, then the oldest due.
    expect(plan).toHaveLength(1)
    expect(plan[0]!.scope).toBe('unconfirmed')
    expect(plan[0]!.orders[0]).toBe(newest)
    expect(plan[0]!.orders.slice(1)).toEqual(waiting.toReversed().slice(0, 19))
  })
})

describe('the batch plan of a pass: the window of doubt', () => {
  it('looks first at an order about to leave its window of doubt, then at the youngest', () => {
    const young = Array.from({ length: 25 }, (_, i) =>
      fresh({ createdAt: now - 30_000 + i, nextCheck: now, lookedAt: now - 1_000 }),
    )
    // Eighteen minutes old, not looked at for 7 s: its window of doubt nears 10 s.
    const waitedLong = fresh({
      createdAt: now - 18 * 60_000,
      nextCheck: now,
      lookedAt: now - 7_000,
    })
    const { plan } = planBatches({
      watched: [...young, waitedLong],
      now,
      pass: 1,
      callsPerPass: 1,
      settings,
    })
    expect(plan[0]!.orders[0]).toBe(waitedLong)
    expect(plan[0]!.orders.slice(1)).toEqual(young.toReversed().slice(0, 19))
  })

  it('looks first at an open order past its deadline: its full look decides', () => {
    const young = Array.from({ length: 25 }, () => fresh({ lookedAt: now - 500 }))
    const pastDeadline = fresh({
      createdAt: now - 22 * 60_000,
      expiresAt: now - 61_000,
      nextCheck: now,
      lookedAt: now - 1_000,
    })
    const { plan } = planBatches({
      watched: [...young, pastDeadline],
      now,
      pass: 1,
      callsPerPass: 2,
      settings,
    })
    expect(plan[0]).toEqual({ scope: 'all', orders: [pastDeadline] })
  })
})

describe('the batch plan of a pass: fresh before older', () => {
  it('serves fresh orders and the owner’s re-checks before older orders, within the budget', () => {
    const old = Array.from({ length: 30 }, (_, i) => older({ nextCheck: now - 1_000 * (30 - i) }))
    const asked = older({ id: 'asked', recheck: true, nextCheck: now })
    const fresh40 = Array.from({ length: 40 }, () => fresh())
    const { plan, backlog } = planBatches({
      watched: [...old, asked, ...fresh40],
      now,
      pass: 1,
      callsPerPass: 3,
      settings,
    })
    // The re-check (a full look, one call) and the first 20 fresh orders (one call) fit; the
    // second batch of fresh ones fits too; the older ones wait.
    expect(plan.map((b) => b.scope)).toEqual(['all', 'unconfirmed', 'unconfirmed'])
    expect(plan[0]!.orders.map((w) => w.id)).toEqual(['asked'])
    expect(cost(plan)).toBe(3)
    expect(backlog).toBe(true)
  })
})

describe('the batch plan of a pass: the budget', () => {
  it('keeps a share for older orders every third pass, the longest waiting first', () => {
    const old = [
      older({ id: 'waited-less', nextCheck: now - 1_000 }),
      older({ id: 'waited-most', nextCheck: now - 60_000 }),
    ]
    const rush = Array.from({ length: 100 }, () => fresh())
    const plan = (pass: number) =>
      planBatches({ watched: [...rush, ...old], now, pass, callsPerPass: 2, settings }).plan
    expect(ids(plan(1)).flat()).not.toContain('waited-most')
    expect(ids(plan(2)).flat()).not.toContain('waited-most')
    const third = plan(3)
    expect(ids(third)[0]).toEqual(['waited-most', 'waited-less'])
    // The share is taken first; the fresh orders get what is left of the budget.
    expect(third.slice(1).map((b) => b.scope)).toEqual(['unconfirmed'])
    // Planned again within the same pass (one call at a time), the share is not taken twice.
    const again = planBatches({
      watched: [...rush, ...old],
      now,
      pass: 3,
      callsPerPass: 1,
      settings,
      olderShare: false,
    }).plan
    expect(again.map((b) => b.scope)).toEqual(['unconfirmed'])
  })

  it('never spends more than the budget, however many orders are due', () => {
    const many = [
      ...Array.from({ length: 500 }, () => fresh()),
      ...Array.from({ length: 500 }, () => fresh({ fullLookDue: true })),
      ...Array.from({ length: 500 }, () => older()),
    ]
    for (const callsPerPass of [2, 3, 7, 30])
      for (const pass of [1, 2, 3]) {
        const { plan, backlog } = planBatches({ watched: many, now, pass, callsPerPass, settings })
        expect(cost(plan)).toBeLessThanOrEqual(Math.max(callsPerPass, 2))
        expect(plan.length).toBeGreaterThan(0)
        expect(backlog).toBe(true)
      }
  })
})
