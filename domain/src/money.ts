/** Money math: EUR prices, EUR-per-BSV rates and integer satoshis. No floats reach the chain. */
export const SATOSHIS_PER_BSV = 100_000_000

const RATE_SCALE = 100_000_000n // rates are handled with 8 decimals

/** Parses a EUR amount ("12.5", 12.5) into integer cents, refusing more than 2 decimals. */
export function eurToCents(value: number | string): number {
  const text = typeof value === 'number' ? value.toFixed(2) : value.trim()
  if (!/^\d+(\.\d{1,2})?$/.test(text)) throw new RangeError(`Not a EUR amount: ${String(value)}`)
  const [whole = '0', fraction = ''] = text.split('.')
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
}

/** Satoshis due for a EUR price at a EUR-per-BSV rate, rounded up so the shop is never short. */
export function eurToSatoshis(priceEUR: number | string, rateEURPerBSV: number): number {
  if (!Number.isFinite(rateEURPerBSV) || rateEURPerBSV <= 0) {
    throw new RangeError(`Not a usable rate: ${rateEURPerBSV}`)
  }
  const cents = BigInt(eurToCents(priceEUR))
  const rateScaled = BigInt(Math.round(rateEURPerBSV * Number(RATE_SCALE)))
  // sats = cents / 100 / rate * 1e8  =  cents * 1e6 * RATE_SCALE / rateScaled
  const numerator = cents * 1_000_000n * RATE_SCALE
  const sats = (numerator + rateScaled - 1n) / rateScaled
  return Number(sats)
}

/** "0.12345678": satoshis as BSV with exactly 8 decimals, without float rounding. */
export function formatBSV(satoshis: number): string {
  if (!Number.isSafeInteger(satoshis)) throw new RangeError(`Not a satoshi amount: ${satoshis}`)
  const sign = satoshis < 0 ? '-' : ''
  const abs = Math.abs(satoshis)
  const whole = Math.floor(abs / SATOSHIS_PER_BSV)
  const fraction = String(abs % SATOSHIS_PER_BSV).padStart(8, '0')
  return `${sign}${whole}.${fraction}`
}

/** A BSV amount shown from a EUR price and a rate (display only), 8 decimals. */
export function formatEURAsBSV(priceEUR: number | string, rateEURPerBSV: number): string {
  return formatBSV(eurToSatoshis(priceEUR, rateEURPerBSV))
}

/** "12.50": a EUR amount with 2 decimals. */
export function formatEUR(value: number | string): string {
  const cents = eurToCents(typeof value === 'number' ? Math.round(value * 100) / 100 : value)
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
}
