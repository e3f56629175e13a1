import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import type { AdminProduct } from './adminProduct'
import { toAdminProduct } from './adminProduct'

/** Every product for the admin list: active ones newest first, soft-deleted ones last. */
export async function listAdminProducts({
  payload,
}: {
  payload: Payload
}): Promise<AdminProduct[]> {
  const result = await payload.find({
    collection: slugs.products,
    sort: '-createdAt',
    depth: 1,
    limit: 0,
    pagination: false,
  })
  const products = result.docs.map(toAdminProduct)
  return [...products.filter((p) => !p.deletedAt), ...products.filter((p) => p.deletedAt)]
}
