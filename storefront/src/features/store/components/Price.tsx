import { formatEUR, formatEURAsBSV } from '@shop/domain'

type PriceProps = {
  priceEUR: string
  /** EUR per BSV; undefined when the rate could not be fetched (prices then show in EUR only). */
  rate: number | undefined
  className?: string
}

function bsvAmount(priceEUR: string, rate: number | undefined): string | null {
  if (rate === undefined) return null
  try {
    return formatEURAsBSV(priceEUR, rate)
  } catch {
    return null
  }
}

/** A price in BSV (8 decimals) with the approximate EUR (2 decimals), or EUR alone. */
export function Price({ priceEUR, rate, className = '' }: PriceProps) {
  const bsv = bsvAmount(priceEUR, rate)
  const eur = `€${formatEUR(priceEUR)}`
  return (
    <p className={`price ${className}`.trim()}>
      {bsv ? (
        <>
          <span className="price__main">{bsv} BSV</span>{' '}
          <span className="price__approx">≈ {eur}</span>
        </>
      ) : (
        <span className="price__main">{eur}</span>
      )}
    </p>
  )
}
