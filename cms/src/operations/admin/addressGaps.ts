import type { AddressGaps } from '@shop/domain'

/**
 * The runs of unused addresses a wallet must scan past, from the indices that received money
 * (ascending) and the highest index given out. An index no order received money on counts as
 * unused, whether its order expired or was never stored.
 */
export function addressGaps({
  fundedIndices,
  highestIndex,
  walletGapLimit,
}: {
  fundedIndices: readonly number[]
  highestIndex: number | null
  walletGapLimit: number
}): AddressGaps {
  if (highestIndex === null) return { current: 0, longestBeforeFunds: 0, walletGapLimit }
  let longestBeforeFunds = 0
  let previous = -1
  for (const index of fundedIndices) {
    longestBeforeFunds = Math.max(longestBeforeFunds, index - previous - 1)
    previous = index
  }
  return { current: Math.max(0, highestIndex - previous), longestBeforeFunds, walletGapLimit }
}
