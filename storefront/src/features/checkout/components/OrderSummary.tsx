import { formatEUR, formatEURAsBSV } from '@shop/domain'

import type { CheckoutProduct } from '../types'

const PLACEHOLDER_COVER = '/placeholder-cover.svg'

function priceLabels(priceEUR: string, rate: number | undefined) {
  const eur = `€${formatEUR(priceEUR)}`
  if (rate === undefined) return { main: eur, approx: null }
  try {
    return { main: `${formatEURAsBSV(priceEUR, rate)} BSV`, approx: `≈ ${eur}` }
  } catch {
    return { main: eur, approx: null }
  }
}

/** What is being bought: cover, name and the price in BSV (EUR only while no rate is known). */
export function OrderSummary({ product, rate }: { product: CheckoutProduct; rate?: number }) {
  const price = priceLabels(String(product.priceEUR), rate)
  return (
    <section className="card checkout-summary" aria-labelledby="order-summary-title">
      <h2 id="order-summary-title">Order summary</h2>
      <div className="checkout-summary__item">
        <img
          className="checkout-summary__cover"
          src={product.coverImageUrl || PLACEHOLDER_COVER}
          alt={`Cover of ${product.name}`}
          width={96}
          height={128}
          onError={(event) => {
            if (!event.currentTarget.src.endsWith(PLACEHOLDER_COVER))
              event.currentTarget.src = PLACEHOLDER_COVER
          }}
        />
        <div>
          <p className="checkout-summary__name">{product.name}</p>
          <p className="muted checkout-summary__type">
            {product.type === 'PDF' ? 'Digital PDF' : 'Physical Book'}
          </p>
          <p className="checkout-summary__price" data-testid="checkout-price">
            {price.main}
            {price.approx ? (
              <span className="muted checkout-summary__approx"> {price.approx}</span>
            ) : null}
          </p>
        </div>
      </div>
    </section>
  )
}
