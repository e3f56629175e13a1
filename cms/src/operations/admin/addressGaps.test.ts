import { describe, expect, it } from 'vitest'

import { addressGaps } from './addressGaps'

describe('runs of unused addresses', () => {
  it('counts the run since the last funded index and the longest run before any funds', () => {
    expect(addressGaps({ fundedIndices: [], highestIndex: null, walletGapLimit: 20 })).toEqual({
      current: 0,
      longestBeforeFunds: 0,
      walletGapLimit: 20,
    })
    // 0..9 given out, nothing paid: ten unused in a row.
    expect(addressGaps({ fundedIndices: [], highestIndex: 9, walletGapLimit: 20 }).current).toBe(10)
    // Paid at 0, 3 and 40; given out up to 45.
    expect(
      addressGaps({ fundedIndices: [0, 3, 40], highestIndex: 45, walletGapLimit: 20 }),
    ).toEqual({ current: 5, longestBeforeFunds: 36, walletGapLimit: 20 })
    // The last index given out is paid: no run after it.
    expect(addressGaps({ fundedIndices: [2, 7], highestIndex: 7, walletGapLimit: 20 })).toEqual({
      current: 0,
      longestBeforeFunds: 4,
      walletGapLimit: 20,
    })
  })
})
