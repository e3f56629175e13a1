import type { PublicProduct } from '@shop/domain'

export const productTypeLabel = (type: PublicProduct['type']) =>
  type === 'PDF' ? 'Digital PDF' : 'Physical Book'

/** 'Digital PDF' for type PDF, otherwise 'Physical Book' (spec section 2). */
export function ProductTypeBadge({ type }: { type: PublicProduct['type'] }) {
  return (
    <span className={type === 'PDF' ? 'badge badge--digital' : 'badge badge--physical'}>
      {productTypeLabel(type)}
    </span>
  )
}
