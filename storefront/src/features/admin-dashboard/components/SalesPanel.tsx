import { useState } from 'react'
import useSWR from 'swr'

import { getSales } from '../api/dashboard'
import type { SalesPeriod } from './SalesChart'
import { SalesChart, periodLabel } from './SalesChart'
import { bsv, euro } from '@/lib/admin/format'
import { useSignOutOn401 } from '@/lib/admin/use-unauthorized'

const PERIODS: { value: SalesPeriod; label: string; current: string }[] = [
  { value: 'day', label: 'Days', current: 'Today' },
  { value: 'week', label: 'Weeks', current: 'This week' },
  { value: 'month', label: 'Months', current: 'This month' },
]

/** What sold: the current day, week or month, the periods before it as bars, and all time. */
export function SalesPanel() {
  const sales = useSWR('admin/sales', getSales)
  useSignOutOn401(sales.error)
  const [period, setPeriod] = useState<SalesPeriod>('day')
  const chosen = PERIODS.find((p) => p.value === period)!
  const buckets = sales.data?.[period] ?? []
  const current = buckets.at(-1)

  return (
    <section className="card admin-panel admin-sales" aria-labelledby="sales-title">
      <div className="admin-sales__head">
        <h2 id="sales-title">Sales</h2>
        <div className="admin-segmented" role="group" aria-label="Sales by">
          {PERIODS.map((p) => (
            <button
              key={p.value}
              type="button"
              className="admin-segmented__option"
              aria-pressed={p.value === period}
              onClick={() => setPeriod(p.value)}
            >
              {p.label}
            </button>
          ))}
        </div>
      </div>
      {sales.error ? (
        <p className="muted">The sales could not be loaded.</p>
      ) : !sales.data ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <dl className="admin-figures">
            <div>
              <dt>
                {chosen.current}
                {current ? (
                  <span className="muted"> ({periodLabel(period, current.start)})</span>
                ) : null}
              </dt>
              <dd data-testid="sales-current-eur">{euro(current?.eur ?? 0)}</dd>
              <dd className="muted">
                {bsv(current?.satoshis ?? 0)} · {current?.orders ?? 0} paid order
                {current?.orders === 1 ? '' : 's'}
              </dd>
            </div>
            <div>
              <dt>All time</dt>
              <dd data-testid="sales-total-eur">{euro(sales.data.total.eur)}</dd>
              <dd className="muted">
                {bsv(sales.data.total.satoshis)} · {sales.data.total.orders} paid order
                {sales.data.total.orders === 1 ? '' : 's'}
              </dd>
            </div>
          </dl>
          <SalesChart period={period} buckets={buckets} />
          <p className="muted admin-sales__note">
            Paid orders by the day they were paid (UTC): EUR is the price paid, shipping included;
            BSV is what the chain brought in.
          </p>
        </>
      )}
    </section>
  )
}
