import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'

import { Price } from './Price'

describe('a price', () => {
  it('shows BSV with 8 decimals and the approximate EUR with 2', () => {
    render(<Price priceEUR="14.90" rate={38.1234} />)
    // 14.90 / 38.1234 = 0.39083608 BSV, rounded up to the satoshi
    expect(screen.getByText('0.39083608 BSV')).toBeInTheDocument()
    expect(screen.getByText('≈ €14.90')).toBeInTheDocument()
  })

  it('shows EUR only without a rate', () => {
    const { container } = render(<Price priceEUR="9.5" rate={undefined} />)
    expect(container).toHaveTextContent(/^€9\.50$/)
  })

  it('shows EUR only when the rate is unusable', () => {
    const { container } = render(<Price priceEUR="29.90" rate={0} />)
    expect(container).toHaveTextContent(/^€29\.90$/)
  })
})
