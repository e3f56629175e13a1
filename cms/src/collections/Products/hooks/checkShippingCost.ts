import { isShippingCost, SHIPPING_COST_RULE } from '@shop/domain'
import type { Validate } from 'payload'

/** A printed book's shipping cost is 0 (included) or an amount in EUR, from every door. */
export const checkShippingCost: Validate = (value) =>
  value === null || value === undefined || isShippingCost(value) ? true : SHIPPING_COST_RULE
