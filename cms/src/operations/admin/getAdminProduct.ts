import type { Payload } from 'payload'
import { NotFound } from 'payload'

import { slugs } from '../../collections/slugs'
import type { Product } from '../../payload-types'
import type { AdminProduct } from './adminProduct'
import { toAdminProduct } from './adminProduct'

/** The product document itself (deleted ones included), or null. */
export async function findProductDoc({
  payload,
  id,
}: {
  payload: Payload
  id: number | string
}): Promise<Product | null> {
  try {
    return await payload.findByID({ collection: slugs.products, id, depth: 1 })
  } catch (error) {
    if (error instanceof NotFound) return null
    throw error
  }
}

export async function getAdminProduct({
  payload,
  id,
}: {
  payload: Payload
  id: number | string
}): Promise<AdminProduct | null> {
  const product = await findProductDoc({ payload, id })
  return product ? toAdminProduct(product) : null
}
