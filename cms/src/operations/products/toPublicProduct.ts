import type { PublicProduct } from '@shop/domain'
import { formatEUR, isPhysical, normalizeProductType, publicProductType } from '@shop/domain'

import type { Product } from '../../payload-types'

/**
 * The spec's public product: DIGITAL books are shown as type PDF; covers as relative paths; a
 * printed book says what shipping adds ("0.00": included).
 */
export function toPublicProduct(product: Product): PublicProduct {
  return {
    id: product.id,
    name: product.name,
    type: publicProductType(normalizeProductType(product.type) ?? 'DIGITAL'),
    priceEUR: formatEUR(product.priceEUR),
    shortDescription: product.shortDescription ?? '',
    coverImageUrl: coverImageUrl(product.coverImage),
    currentStock: Math.max(0, product.currentStock ?? 0),
    isAvailable: Boolean(product.isAvailable),
    shippingCostEUR: isPhysical(product.type) ? formatEUR(product.shippingCostEUR ?? 0) : null,
  }
}

/** The relative URL of a product's cover (served from MEDIA_DIR at /media), or null. */
export function coverImageUrl(cover: Product['coverImage']): string | null {
  if (cover && typeof cover === 'object' && cover.filename) {
    return `/media/${encodeURIComponent(cover.filename)}`
  }
  return null
}
