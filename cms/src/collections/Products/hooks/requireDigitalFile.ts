import { isDigital } from '@shop/domain'
import type { Validate } from 'payload'

export const DIGITAL_FILE_REQUIRED =
  'A digital book for sale needs its file: upload it, or make the book unavailable until you have it.'

/**
 * An available digital book must have its file, from every door: otherwise its first buyer
 * pays and ends in ERROR_FULFILLMENT.
 */
export const requireDigitalFile: Validate = (value, { data }) => {
  const product = (data ?? {}) as { type?: unknown; isAvailable?: unknown; deletedAt?: unknown }
  const forSale = product.isAvailable !== false && !product.deletedAt
  if (isDigital(product.type) && forSale && (value === null || value === undefined || value === ''))
    return DIGITAL_FILE_REQUIRED
  return true
}
