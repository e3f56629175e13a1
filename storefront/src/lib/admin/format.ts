import { formatBSV, formatEUR } from '@shop/domain'

export const NOT_PROVIDED = 'Not provided'
export const NOT_AVAILABLE = 'N/A'

export const euro = (value: number | null | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? `€${formatEUR(value)}` : NOT_AVAILABLE

/** Satoshis as BSV with 8 decimals (spec section 9). */
export const bsv = (satoshis: number | null | undefined) =>
  typeof satoshis === 'number' && Number.isSafeInteger(satoshis)
    ? `${formatBSV(satoshis)} BSV`
    : NOT_AVAILABLE

/** EUR per BSV with 4 decimals (spec section 9). */
export const ratePerCoin = (rate: number | null | undefined) =>
  typeof rate === 'number' && Number.isFinite(rate) ? `€${rate.toFixed(4)} per BSV` : NOT_AVAILABLE

export const dateTime = (iso: string | null | undefined) => {
  if (!iso) return NOT_AVAILABLE
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? NOT_AVAILABLE : date.toLocaleString()
}

export const EXPLORER_TX_URL = 'https://whatsonchain.com/tx/'
