import type { Payload } from 'payload'
import type { PublicProduct } from '@shop/domain'

import { slugs } from '../../collections/slugs'
import { toPublicProduct } from './toPublicProduct'

/** One product as the public sees it, or null when it is missing, hidden or soft-deleted. */
export async function getPublicProduct({
  payload,
  id,
}: {
  payload: Payload
  id: string
}): Promise<PublicProduct | null> {
  const result = await payload.find({
    collection: slugs.products,
    where: {
      and: [
        { id: { equals: id } },
        { isAvailable: { equals: true } },
        { deletedAt: { exists: false } },
      ],
    },
    depth: 1,
    limit: 1,
    pagination: false,
  })
  const product = result.docs[0]
  return product ? toPublicProduct(product) : null
}
