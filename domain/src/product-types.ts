/**
 * The one vocabulary of product types. The shop stores DIGITAL or PHYSICAL; the public API of
 * the spec calls a digital book PDF; books imported from the old shop may say PDF or EPUB, and
 * both are digital.
 */
export const PRODUCT_TYPES = ['DIGITAL', 'PHYSICAL'] as const
export type ProductType = (typeof PRODUCT_TYPES)[number]

export const PUBLIC_PRODUCT_TYPES = ['PDF', 'PHYSICAL'] as const
export type PublicProductType = (typeof PUBLIC_PRODUCT_TYPES)[number]

const LEGACY_DIGITAL_TYPES: readonly string[] = ['PDF', 'EPUB']

export function isProductType(value: unknown): value is ProductType {
  return typeof value === 'string' && (PRODUCT_TYPES as readonly string[]).includes(value)
}

/** DIGITAL or PHYSICAL for any stored or legacy value (PDF, EPUB, any case); null otherwise. */
export function normalizeProductType(value: unknown): ProductType | null {
  if (typeof value !== 'string') return null
  const upper = value.trim().toUpperCase()
  if (isProductType(upper)) return upper
  return LEGACY_DIGITAL_TYPES.includes(upper) ? 'DIGITAL' : null
}

/** The type the spec's public API shows: PDF for a digital book. */
export function publicProductType(type: ProductType): PublicProductType {
  return type === 'DIGITAL' ? 'PDF' : 'PHYSICAL'
}

export const isDigital = (type: unknown): boolean => normalizeProductType(type) === 'DIGITAL'
export const isPhysical = (type: unknown): boolean => normalizeProductType(type) === 'PHYSICAL'
