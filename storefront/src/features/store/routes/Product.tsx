import { Link, useNavigate, useParams } from 'react-router-dom'
import useSWR from 'swr'

import { ErrorState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'
import { ApiError } from '@/lib/api-client'
import { useHydrated } from '@/lib/use-hydrated'

import { getProduct, productKey } from '../api/get-product'
import { useBsvRate } from '../api/use-bsv-rate'
import { Price } from '../components/Price'
import { ProductCover } from '../components/ProductCover'
import { ProductTypeBadge } from '../components/ProductTypeBadge'
import { ShippingNote } from '../components/ShippingNote'
import '../store.css'

function BackToStore() {
  return (
    <Link to={paths.store} className="back-link">
      <span aria-hidden="true">←</span> Back to the store
    </Link>
  )
}

/**
 * The page while the book loads: the same frame, a cover of the same size and placeholder lines,
 * so nothing moves when the book arrives (a spinner box here made the footer jump, CLS 0.57).
 */
function ProductSkeleton() {
  return (
    <section className="container page">
      <BackToStore />
      <div role="status" aria-live="polite">
        <span className="visually-hidden">Loading book…</span>
        <div className="product-detail" aria-hidden="true" data-testid="product-skeleton">
          <div className="product-detail__cover card">
            <div className="skeleton" />
          </div>
          <div className="product-detail__info">
            <div className="skeleton skeleton--badge" />
            <div className="skeleton skeleton--title" />
            <div className="skeleton skeleton--price" />
            <div className="skeleton skeleton--line" />
            <div className="skeleton skeleton--line skeleton--short" />
            <div className="skeleton skeleton--button" />
          </div>
        </div>
      </div>
    </section>
  )
}

/** /product/{productId}: one book, its stock and the 'Buy Now' button. */
export function ProductRoute() {
  const { productId = '' } = useParams()
  const navigate = useNavigate()
  const {
    data: product,
    error,
    isLoading,
    isValidating,
    mutate,
  } = useSWR(productKey(productId), () => getProduct(productId))
  const rate = useBsvRate()
  const hydrated = useHydrated()

  if (!product && (isLoading || isValidating)) return <ProductSkeleton />

  if (error instanceof ApiError && error.status === 404) {
    return (
      <section className="container page narrow center">
        <title>Product not found · Dual Vote</title>
        <h1>Product not found.</h1>
        <p className="muted">This book is not in the store, or it is no longer sold.</p>
        <Link to={paths.store} className="button button--primary">
          Back to the store
        </Link>
      </section>
    )
  }

  if (error || !product) {
    return (
      <section className="container page narrow">
        <h1>Failed to load product.</h1>
        <ErrorState
          message={`Error: ${error instanceof Error && error.message ? error.message : 'Failed to load product.'}`}
          onRetry={() => void mutate()}
        />
        <p>
          <BackToStore />
        </p>
      </section>
    )
  }

  const unavailable = !product.isAvailable || product.currentStock <= 0

  return (
    <section className="container page">
      <title>{`${product.name} · Dual Vote`}</title>
      <BackToStore />
      <div className="product-detail">
        <div className="product-detail__cover card">
          <ProductCover src={product.coverImageUrl} name={product.name} eager />
        </div>
        <div className="product-detail__info">
          <ProductTypeBadge type={product.type} />
          <h1 className="product-detail__name">{product.name}</h1>
          <Price priceEUR={product.priceEUR} rate={rate} className="price--large" />
          {product.type === 'PHYSICAL' ? (
            <ShippingNote shippingCostEUR={product.shippingCostEUR} />
          ) : null}
          <p className="product-detail__description">{product.shortDescription}</p>
          {unavailable ? (
            <p className="stock stock--out">Currently Unavailable (Out of Stock)</p>
          ) : (
            <p className="stock stock--in">{product.currentStock} available in stock</p>
          )}
          <button
            type="button"
            className="button button--accent button--buy"
            disabled={unavailable || !hydrated}
            onClick={() => navigate(paths.checkout, { state: { product } })}
          >
            Buy Now
          </button>
          <ul className="product-detail__notes muted">
            <li>Paid in BSV from any wallet, to a one-time address shown as a QR code.</li>
            <li>
              {product.type === 'PDF'
                ? 'Delivered as a personal download link as soon as the payment is seen.'
                : 'Shipped to your address with a tracking number.'}
            </li>
            <li>No account needed: we only ask for what the order requires.</li>
          </ul>
        </div>
      </div>
    </section>
  )
}

export const Component = ProductRoute
