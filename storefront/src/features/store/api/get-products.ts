import type { PublicProduct } from '@shop/domain'

import { api } from '@/lib/api-client'

export const productsKey = '/api/products'

/** GET /api/products: the store's catalogue (spec section 7). */
export function getProducts(): Promise<PublicProduct[]> {
  return api.get<PublicProduct[]>(productsKey, 'Failed to fetch products.')
}
