import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import type { AdminProduct } from './adminProduct'
import { toAdminProduct } from './adminProduct'
import { findProductDoc } from './getAdminProduct'

/**
 * Soft delete (sets deletedAt) or restore (clears it). Orders keep pointing at the product;
 * the public store stops listing it at once. Repeating either is harmless.
 */
export async function setProductDeleted({
  payload,
  id,
  deleted,
}: {
  payload: Payload
  id: number | string
  deleted: boolean
}): Promise<AdminProduct | null> {
  const existing = await findProductDoc({ payload, id })
  if (!existing) return null
  if (Boolean(existing.deletedAt) === deleted) return toAdminProduct(existing)
  const updated = await payload.update({
    collection: slugs.products,
    id,
    data: { deletedAt: deleted ? new Date().toISOString() : null },
    depth: 1,
  })
  return toAdminProduct(updated)
}
