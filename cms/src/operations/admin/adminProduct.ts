import type { Product } from '../../payload-types'
import { coverImageUrl } from '../products/toPublicProduct'

/** The spec's admin view of a product (section 3): every product, deleted ones included. */
export type AdminProduct = {
  id: number | string
  name: string
  type: 'DIGITAL' | 'PHYSICAL'
  priceEUR: number
  totalStock: number
  currentStock: number
  shortDescription: string
  isAvailable: boolean
  coverImageUrl: string | null
  pdfFilename: string | null
  createdAt: string
  deletedAt: string | null
}

export function toAdminProduct(product: Product): AdminProduct {
  const file = product.digitalFile
  return {
    id: product.id,
    name: product.name,
    // Legacy PDF and EPUB are read as DIGITAL by the collection's afterRead hook.
    type: product.type === 'PHYSICAL' ? 'PHYSICAL' : 'DIGITAL',
    priceEUR: Number(product.priceEUR),
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
