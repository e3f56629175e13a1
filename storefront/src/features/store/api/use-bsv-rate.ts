import useSWR from 'swr'

import { bsvPriceKey, getBsvPrice } from './get-bsv-price'

/**
 * The live EUR-per-BSV rate, refreshed every minute. A failure is tolerated on purpose
 * (spec section 7): the rate is then undefined and prices show in EUR only.
 */
export function useBsvRate(): number | undefined {
  const { data } = useSWR(bsvPriceKey, getBsvPrice, { refreshInterval: 60_000 })
  return data
}
