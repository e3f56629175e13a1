import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'

import { SalesChart, periodLabel } from './SalesChart'

describe('the sales chart', () => {
  it('names periods as an owner reads them', () => {
    expect(periodLabel('day', '2026-11-24')).toBe('24 Nov')
    expect(periodLabel('week', '2026-11-23')).toBe('week of 23 Nov')
    expect(periodLabel('month', '2026-01-01')).toBe('Jan 2026')
  })

  it('draws one bar per period, the tallest for the best one, each with its figures', () => {
    const { container } = render(
      <SalesChart
        period="day"
        buckets={[
          { start: '2026-11-22', orders: 0, eur: 0, satoshis: 0 },
          { start: '2026-11-23', orders: 1, eur: 10, satoshis: 25_000_000 },
          { start: '2026-11-24', orders: 2, eur: 40, satoshis: 100_000_000 },
        ]}
      />,
    )
    const bars = [...container.querySelectorAll('rect')]
    expect(bars).toHaveLength(3)
    const heights = bars.map((bar) => Number(bar.getAttribute('height')))
    expect(heights[0]).toBe(0)
    expect(heights[2]).toBeGreaterThan(heights[1]! * 3.5)
    expect(bars[2]!.querySelector('title')!.textContent).toBe(
      '24 Nov: €40.00, 1.00000000 BSV, 2 orders',
    )
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      'Sales from 22 Nov to 24 Nov: €50.00 in 3 orders.',
    )
  })
})
