import { ValidationError, type CollectionBeforeChangeHook, type FieldHook } from 'payload'

import type { Product } from '../../../payload-types'

/** Product data as hooks see it: with the virtual stock the form was loaded with. */
type ProductData = Partial<Product> & { currentStockLoaded?: number | null }

/**
 * Fills the virtual `currentStockLoaded` with the stock as read, so a form (Payload's /cms, the
 * custom admin) sends back what it showed beside what the owner typed.
 */
export const stockAsRead: FieldHook = ({ siblingData }) =>
  typeof siblingData?.currentStock === 'number' ? siblingData.currentStock : 0

/**
 * Stock changes only relatively, from every door, and never goes below 0. A save moves the
 * stored stock by what the writer changed (`currentStock` minus the `currentStockLoaded` it
 * was shown), so copies sold while a form was open are kept; a save that leaves the field as it
 * was leaves the stock alone. A writer that sends no loaded value (the spec's PUT, a script)
 * states the stock it wants. It runs inside the update's transaction, after the stored value
 * was read in it, so no checkout can slip in between.
 */
export const keepStockRelative: CollectionBeforeChangeHook<Product> = ({
  data,
  originalDoc,
  operation,
  collection,
  req,
}) => {
  const incoming = data as ProductData
  const loaded = incoming.currentStockLoaded
  delete incoming.currentStockLoaded
  if (typeof incoming.currentStock !== 'number') return data
  for (const [path, value] of [
    ['currentStock', incoming.currentStock],
    ['currentStockLoaded', loaded],
  ] as const) {
    if (typeof value === 'number' && !(Number.isInteger(value) && value >= 0))
      throw new ValidationError({
        collection: collection.slug,
        errors: [{ path, message: 'Stock must be a whole number, 0 or more.' }],
        req,
      })
  }
  if (operation === 'create') {
    incoming.currentStock = Math.max(0, incoming.currentStock)
    return data
  }
  const stored = typeof originalDoc?.currentStock === 'number' ? originalDoc.currentStock : 0
  const shown = typeof loaded === 'number' ? loaded : stored
  incoming.currentStock = Math.max(0, stored + (incoming.currentStock - shown))
  return data
}
