import { describe, expect, it } from 'vitest'

import { SALES_PERIODS, periodStart, salesBuckets } from './salesBuckets'

const at = (iso: string) => new Date(iso)

describe('sales by period', () => {
  it('starts weeks on Monday and months on the first, in UTC', () => {
    // 2026-11-24 is a Tuesday.
    expect(periodStart('week', at('2026-11-24T23:59:00Z')).toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    )
    expect(periodStart('week', at('2026-11-23T00:00:00Z')).toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    )
    expect(periodStart('week', at('2026-11-22T23:59:59Z')).toISOString()).toBe(
      '2026-11-16T00:00:00.000Z',
    )
    expect(periodStart('month', at('2026-03-31T12:00:00Z')).toISOString()).toBe(
      '2026-03-01T00:00:00.000Z',
    )
  })

  it('puts each paid order in its day, week and month, with empty periods kept', () => {
    const now = at('2026-11-24T10:00:00Z')
    const sales = [
      { paidAt: at('2026-11-24T09:00:00Z'), eur: 19.99, satoshis: 40_000_000 },
      { paidAt: at('2026-11-24T01:00:00Z'), eur: 0.1, satoshis: 200_000 },
      { paidAt: at('2026-11-23T08:00:00Z'), eur: 0.2, satoshis: 400_000 },
      { paidAt: at('2026-11-01T08:00:00Z'), eur: 30, satoshis: 60_000_000 },
      { paidAt: at('2025-12-31T23:00:00Z'), eur: 5, satoshis: 1 },
      // Too old for any chart (13 months), still in the total.
      { paidAt: at('2025-10-15T00:00:00Z'), eur: 7, satoshis: 2 },
    ]
    const result = salesBuckets(sales, now)
    expect(result.day).toHaveLength(SALES_PERIODS.day)
    expect(result.week).toHaveLength(SALES_PERIODS.week)
    expect(result.month).toHaveLength(SALES_PERIODS.month)

    expect(result.day.at(-1)).toEqual({
      start: '2026-11-24',
      orders: 2,
      eur: 20.09,
      satoshis: 40_200_000,
    })
    expect(result.day.at(-2)).toEqual({
      start: '2026-11-23',
      orders: 1,
      eur: 0.2,
      satoshis: 400_000,
    })
    expect(result.day[0]!.start).toBe('2026-11-11')
    expect(result.day.filter((d) => d.orders > 0)).toHaveLength(2)

    expect(result.week.at(-1)).toMatchObject({ start: '2026-11-23', orders: 3, eur: 20.29 })
    expect(result.week.at(-4)).toMatchObject({ start: '2026-11-02', orders: 0 })
    expect(result.week.at(-5)).toMatchObject({ start: '2026-10-26', orders: 1, eur: 30 })

    expect(result.month.at(-1)).toMatchObject({ start: '2026-11-01', orders: 4, eur: 50.29 })
    expect(result.month[0]).toMatchObject({ start: '2025-12-01', orders: 1, eur: 5 })

    expect(result.total).toEqual({ orders: 6, eur: 62.29, satoshis: 100_600_003 })
  })
})
