/** The public product the product page hands over in router state (spec section 3). */
export type CheckoutProduct = {
  id: string | number
  name: string
  type: 'PDF' | 'PHYSICAL'
  priceEUR: string
  shortDescription?: string
  coverImageUrl?: string | null
  currentStock?: number
  isAvailable?: boolean
  /** A printed book's shipping in EUR ("0.00": included); null for a PDF. */
  shippingCostEUR?: string | null
}

export function isCheckoutProduct(value: unknown): value is CheckoutProduct {
  if (!value || typeof value !== 'object') return false
  const p = value as Record<string, unknown>
  return (
    (typeof p.id === 'string' || typeof p.id === 'number') &&
    typeof p.name === 'string' &&
    (p.type === 'PDF' || p.type === 'PHYSICAL') &&
    (typeof p.priceEUR === 'string' || typeof p.priceEUR === 'number')
  )
}
