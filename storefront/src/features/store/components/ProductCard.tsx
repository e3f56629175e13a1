import type { PublicProduct } from '@shop/domain'
import { Link } from 'react-router-dom'

import { paths } from '@/config/paths'

import { Price } from './Price'
import { ProductCover } from './ProductCover'
import { ProductTypeBadge } from './ProductTypeBadge'

/**
 * One book in the store's grid. The first card's cover is on a phone's first screen (its largest
 * image): it is asked for with the page, not lazily after the first layout (`eager`).
 */
export function ProductCard({
  product,
  rate,
  eager = false,
}: {
  product: PublicProduct
  rate: number | undefined
  eager?: boolean
}) {
  return (
    <article className="card product-card">
      <ProductCover
        src={product.coverImageUrl}
        name={product.name}
        className="product-card__cover"
        eager={eager}
      />
      <div className="product-card__body">
        <ProductTypeBadge type={product.type} />
        <h2 className="product-card__name">{product.name}</h2>
        <p className="product-card__description muted">{product.shortDescription}</p>
        <div className="product-card__footer">
          <Price priceEUR={product.priceEUR} rate={rate} />
          <Link
            to={paths.product(product.id)}
            className="button button--primary"
            aria-label={`View ${product.name}`}
          >
            View
          </Link>
        </div>
      </div>
    </article>
  )
}

/** The loading placeholder of one card: same shape, no content, hidden from screen readers. */
export function ProductCardSkeleton() {
  return (
    <div
      className="card product-card product-card--skeleton"
      data-testid="product-skeleton"
      aria-hidden="true"
    >
      <div className="skeleton product-card__cover" />
      <div className="product-card__body">
        <div className="skeleton skeleton--line skeleton--short" />
        <div className="skeleton skeleton--line" />
        <div className="skeleton skeleton--line" />
        <div className="skeleton skeleton--line skeleton--short" />
      </div>
    </div>
  )
}
