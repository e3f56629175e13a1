import { describe, expect, it } from 'vitest'

import { chainErrorsText } from './chain-errors'

describe('chainErrorsText', () => {
  it("counts and names each kind in the owner's words, unknown kinds as themselves", () => {
    expect(
      chainErrorsText([
        { kind: 'daily-cap', count: 1800 },
        { kind: 'network', count: 3 },
        { kind: 'mystery', count: 1 },
      ]),
    ).toBe('1,800 refusals at the daily cap, 3 network failures, 1 mystery')
  })

  it('is empty when there was no error', () => {
    expect(chainErrorsText([])).toBe('')
  })
})
