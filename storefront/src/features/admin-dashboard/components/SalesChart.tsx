import type { SalesBucket } from '../api/dashboard'
import { bsv, euro } from '@/lib/admin/format'

export type SalesPeriod = 'day' | 'week' | 'month'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** A period's name as the owner reads it: "24 Nov", "week of 23 Nov", "Nov 2026" (UTC dates). */
export function periodLabel(period: SalesPeriod, start: string): string {
  const [year, month, day] = start.split('-').map(Number) as [number, number, number]
  const name = MONTHS[month - 1] ?? ''
  if (period === 'month') return `${name} ${year}`
  return period === 'week' ? `week of ${day} ${name}` : `${day} ${name}`
}

const WIDTH = 640
const HEIGHT = 180
const AXIS = 22

/**
 * Sales per period as bars (inline SVG: no chart library for a dozen bars), EUR on the height;
 * every bar names its period, orders and amounts for a pointer or a screen reader.
 */
export function SalesChart({ period, buckets }: { period: SalesPeriod; buckets: SalesBucket[] }) {
  const highest = Math.max(0, ...buckets.map((b) => b.eur))
  const slot = WIDTH / Math.max(1, buckets.length)
  const barWidth = Math.max(4, slot * 0.64)
  const plotHeight = HEIGHT - AXIS
  const first = buckets[0]
  const last = buckets.at(-1)
  const total = buckets.reduce((sum, b) => sum + b.eur, 0)
  const summary =
    first && last
      ? `Sales from ${periodLabel(period, first.start)} to ${periodLabel(period, last.start)}: ${euro(total)} in ${buckets.reduce((n, b) => n + b.orders, 0)} orders.`
      : 'No sales yet.'
  return (
    <figure className="sales-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={summary}
        data-testid="sales-chart"
      >
        <line
          x1={0}
          x2={WIDTH}
          y1={plotHeight + 0.5}
          y2={plotHeight + 0.5}
          className="sales-chart__axis"
        />
        {buckets.map((bucket, i) => {
          const height =
            highest > 0
              ? Math.max(bucket.eur > 0 ? 2 : 0, (bucket.eur / highest) * (plotHeight - 8))
              : 0
          return (
            <rect
              key={bucket.start}
              x={i * slot + (slot - barWidth) / 2}
              y={plotHeight - height}
              width={barWidth}
              height={height}
              rx={2}
              className="sales-chart__bar"
              data-eur={bucket.eur}
            >
              <title>{`${periodLabel(period, bucket.start)}: ${euro(bucket.eur)}, ${bsv(bucket.satoshis)}, ${bucket.orders} order${bucket.orders === 1 ? '' : 's'}`}</title>
            </rect>
          )
        })}
      </svg>
      {first && last ? (
        <figcaption className="sales-chart__range muted">
          <span>{periodLabel(period, first.start)}</span>
          <span>highest {euro(highest)}</span>
          <span>{periodLabel(period, last.start)}</span>
        </figcaption>
      ) : null}
    </figure>
  )
}
