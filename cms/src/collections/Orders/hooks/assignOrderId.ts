import crypto from 'node:crypto'

import type { CollectionBeforeValidateHook } from 'payload'

/** Gives every new order a random UUID id (122 random bits) before it is stored. */
export const assignOrderId: CollectionBeforeValidateHook = ({ data, operation }) => {
  if (operation === 'create' && data && !data.id) data.id = crypto.randomUUID()
  return data
}
