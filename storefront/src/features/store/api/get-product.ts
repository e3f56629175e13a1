import type { PublicProduct } from '@shop/domain'

import { api } from '@/lib/api-client'

export const productKey = (id: string) => `/api/products/${encodeURIComponent(id)}`

/** GET /api/products/{id}: one product; a 404 carries the server's 'Product not found.'. */
export function getProduct(id: string): Promise<PublicProduct> {
  return api.get<PublicProduct>(productKey(id), `Failed to fetch product ${id}.`)
}
