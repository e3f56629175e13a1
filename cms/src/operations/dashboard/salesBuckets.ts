import type { AdminSales, SalesBucket } from '@shop/domain'

export type Sale = { paidAt: Date; eur: number; satoshis: number }

export const SALES_PERIODS = { day: 14, week: 12, month: 12 } as const
type Period = keyof typeof SALES_PERIODS

const DAY_MS = 86_400_000
const isoDay = (date: Date) => date.toISOString().slice(0, 10)

/** The first day (UTC midnight) of the period holding `date`; weeks start on Monday. */
export function periodStart(period: Period, date: Date): Date {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()))
  if (period === 'day') return day
  if (period === 'week') return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS)
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1))
}

function previousStart(period: Period, start: Date): Date {
  if (period === 'day') return new Date(start.getTime() - DAY_MS)
  if (period === 'week') return new Date(start.getTime() - 7 * DAY_MS)
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - 1, 1))
}

/** Euros to the cent: sums of prices must not drift by float error. */
const cents = (eur: number) => Math.round(eur * 100)

/**
 * Sales by day, week and month (UTC), the last SALES_PERIODS of each ending with the one holding
 * `now`, oldest first, empty periods included so a chart's bars line up with the calendar.
 */
export function salesBuckets(sales: readonly Sale[], now: Date): AdminSales {
  const bucketsOf = (period: Period): SalesBucket[] => {
    const starts: Date[] = [periodStart(period, now)]
    while (starts.length < SALES_PERIODS[period]) starts.unshift(previousStart(period, starts[0]!))
    const byStart = new Map(
      starts.map((start) => [isoDay(start), { orders: 0, cents: 0, satoshis: 0 }]),
    )
    for (const sale of sales) {
      const bucket = byStart.get(isoDay(periodStart(period, sale.paidAt)))
      if (!bucket) continue
      bucket.orders += 1
      bucket.cents += cents(sale.eur)
      bucket.satoshis += sale.satoshis
    }
    return [...byStart].map(([start, b]) => ({
      start,
      orders: b.orders,
      eur: b.cents / 100,
      satoshis: b.satoshis,
    }))
  }
  return {
    day: bucketsOf('day'),
    week: bucketsOf('week'),
    month: bucketsOf('month'),
    total: {
      orders: sales.length,
      eur: sales.reduce((sum, sale) => sum + cents(sale.eur), 0) / 100,
      satoshis: sales.reduce((sum, sale) => sum + sale.satoshis, 0),
    },
  }
}
