import type { AdminProduct } from '@shop/domain'
import { normalizeProductType } from '@shop/domain'

import type { Product } from '../../payload-types'
import { coverImageUrl } from '../products/toPublicProduct'

export function toAdminProduct(product: Product): AdminProduct {
  const file = product.digitalFile
  return {
    id: product.id,
    name: product.name,
    // Legacy PDF and EPUB are read as DIGITAL by the collection's afterRead hook.
    type: normalizeProductType(product.type) ?? 'DIGITAL',
    priceEUR: Number(product.priceEUR),
    shippingCostEUR: Number(product.shippingCostEUR ?? 0),
    totalStock: product.totalStock ?? 0,
    currentStock: product.currentStock ?? 0,
    shortDescription: product.shortDescription ?? '',
    isAvailable: Boolean(product.isAvailable),
    coverImageUrl: coverImageUrl(product.coverImage),
    pdfFilename: file && typeof file === 'object' ? (file.filename ?? null) : null,
    createdAt: product.createdAt,
    deletedAt: product.deletedAt ?? null,
  }
}

export type { AdminProduct } from '@shop/domain'
