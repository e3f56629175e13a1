import useSWR from 'swr'

import { ErrorState, EmptyState } from '@/components/ui/StatusMessage'

import { getProducts, productsKey } from '../api/get-products'
import { useBsvRate } from '../api/use-bsv-rate'
import { ProductCard, ProductCardSkeleton } from '../components/ProductCard'
import '../store.css'

/** The skeleton shows this many cards while the catalogue loads (spec section 9). */
export const SKELETON_CARDS = 4

/** /store: 'Our Books', the catalogue as a grid of cards, with its loading, error and empty states. */
export function StoreRoute() {
  const {
    data: products,
    error,
    isLoading,
    isValidating,
    mutate,
  } = useSWR(productsKey, getProducts)
  const rate = useBsvRate()
  const loading = !products && (isLoading || isValidating)

  let content
  if (loading) {
    content = (
      <div role="status" aria-live="polite">
        <span className="visually-hidden">Loading books…</span>
        <div className="product-grid">
          {Array.from({ length: SKELETON_CARDS }, (_, index) => (
            <ProductCardSkeleton key={index} />
          ))}
        </div>
      </div>
    )
  } else if (error || !products) {
    content = (
      <ErrorState message="Could not load products." onRetry={() => void mutate()}>
        {error instanceof Error && error.message ? (
          <p className="status-box__detail">Error: {error.message}</p>
        ) : null}
      </ErrorState>
    )
  } else if (products.length === 0) {
    content = <EmptyState>No books available at the moment.</EmptyState>
  } else {
    content = (
      <ul className="product-grid" aria-label="Books">
        {products.map((product, index) => (
          <li key={product.id}>
            <ProductCard product={product} rate={rate} eager={index === 0} />
          </li>
        ))}
      </ul>
    )
  }

  return (
    <>
      <title>Our Books · Dual Vote</title>
      <section className="container page" aria-labelledby="store-title">
        <div className="store-intro">
          <h1 id="store-title">Our Books</h1>
          <p className="muted">
            The complete framework in one book, as a PDF or in print. Prices are set in euros and
            paid in BSV at the live rate; no account needed.
          </p>
        </div>
        {content}
      </section>
    </>
  )
}

export const Component = StoreRoute
