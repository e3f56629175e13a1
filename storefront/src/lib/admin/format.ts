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

/** A long hex hash (txid, block hash, merkle root) as its first and last 8 digits. */
export const shortHash = (hash: string | null | undefined) => {
  if (!hash) return NOT_AVAILABLE
  return hash.length > 20 ? `${hash.slice(0, 8)}…${hash.slice(-8)}` : hash
}

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
]

/** How long ago (or, for a clock ahead of this one, in how long): "3 minutes ago", "now". */
export const relativeTime = (iso: string | null | undefined, now = Date.now()) => {
  if (!iso) return NOT_AVAILABLE
  const at = new Date(iso).getTime()
  if (Number.isNaN(at)) return NOT_AVAILABLE
  const seconds = Math.round((at - now) / 1000)
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })
  for (const [unit, size] of RELATIVE_UNITS)
    if (Math.abs(seconds) >= size || unit === 'second')
      return format.format(Math.trunc(seconds / size), unit)
  return NOT_AVAILABLE
}
