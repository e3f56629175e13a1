import type { CollectionBeforeValidateHook } from 'payload'

import { newOrderId } from '../newOrder'

/** Gives every new order a random UUID id before it is stored. */
export const assignOrderId: CollectionBeforeValidateHook = ({ data, operation }) => {
  if (operation === 'create' && data && !data.id) data.id = newOrderId()
  return data
}
