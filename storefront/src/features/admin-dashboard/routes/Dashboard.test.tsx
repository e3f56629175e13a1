import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'

import { EmailDeliveryWarning, gapWarningOf } from './Dashboard'

describe('the e-mail warning', () => {
  it('tells the owner when production runs without e-mail, and nothing otherwise', () => {
    const { rerender, container } = render(<EmailDeliveryWarning delivery="off" />)
    expect(screen.getByRole('alert').textContent).toMatch(/E-mail is turned off.*no alerts/)
    rerender(<EmailDeliveryWarning delivery="smtp" />)
    expect(container.textContent).toBe('')
    rerender(<EmailDeliveryWarning delivery="log" />)
    expect(container.textContent).toBe('')
  })
})

describe('the wallet gap warning', () => {
  const gaps = (current: number, longestBeforeFunds = 0) => ({
    current,
    longestBeforeFunds,
    walletGapLimit: 20,
  })

  it('says nothing while the runs of unused addresses are short', () => {
    expect(gapWarningOf(gaps(0))).toBeNull()
    expect(gapWarningOf(gaps(14, 10))).toBeNull()
  })

  it('warns before the run since the last payment reaches the limit', () => {
    expect(gapWarningOf(gaps(15))).toMatchObject({ tone: 'warning', raiseTo: 40 })
  })

  it('says the wallet may miss payments once a run reaches the limit, and what to raise it to', () => {
    expect(gapWarningOf(gaps(20))).toMatchObject({ tone: 'error', raiseTo: 40 })
    expect(gapWarningOf(gaps(3, 220))).toMatchObject({
      tone: 'error',
      text: expect.stringContaining('220 unused addresses'),
      raiseTo: 240,
    })
  })
})
