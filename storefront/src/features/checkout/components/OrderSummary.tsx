import { formatEUR, formatEURAsBSV, orderTotalEUR } from '@shop/domain'

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

/** A printed book's shipping as the product page handed it over; null for a PDF or unknown. */
function shippingOf(product: CheckoutProduct): string | null {
  if (product.type !== 'PHYSICAL' || typeof product.shippingCostEUR !== 'string') return null
  try {
    return formatEUR(product.shippingCostEUR)
  } catch {
    return null
  }
}

/**
 * What is being bought: cover, name and the price to pay in BSV (EUR only while no rate is
 * known); for a printed book, the shipping: included, or added to the book's price.
 */
export function OrderSummary({ product, rate }: { product: CheckoutProduct; rate?: number }) {
  const bookEUR = formatEUR(String(product.priceEUR))
  const shipping = shippingOf(product)
  const charged = shipping !== null && shipping !== '0.00'
  const price = priceLabels(charged ? orderTotalEUR(bookEUR, shipping) : bookEUR, rate)
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
      {shipping !== null ? (
        <dl className="checkout-summary__lines" data-testid="checkout-shipping">
          {charged ? (
            <>
              <div>
                <dt>Book</dt>
                <dd>€{bookEUR}</dd>
              </div>
              <div>
                <dt>Shipping</dt>
                <dd>€{shipping}</dd>
              </div>
              <div className="checkout-summary__total">
                <dt>Total</dt>
                <dd>€{orderTotalEUR(bookEUR, shipping)}</dd>
              </div>
            </>
          ) : (
            <div>
              <dt>Shipping</dt>
              <dd>Included in the price</dd>
            </div>
          )}
        </dl>
      ) : null}
    </section>
  )
}
