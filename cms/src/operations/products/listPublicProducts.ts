import type { Payload } from 'payload'
import type { PublicProduct } from '@shop/domain'

import { slugs } from '../../collections/slugs'
import { toPublicProduct } from './toPublicProduct'

/** The store's catalogue: available, not soft-deleted, newest first. */
export async function listPublicProducts({
  payload,
}: {
  payload: Payload
}): Promise<PublicProduct[]> {
  const result = await payload.find({
    collection: slugs.products,
    where: { and: [{ isAvailable: { equals: true } }, { deletedAt: { exists: false } }] },
    sort: '-createdAt',
    depth: 1,
    limit: 0,
    pagination: false,
  })
  return result.docs.map(toPublicProduct)
}
