import type { Order } from '../../payload-types'

/** A printed book's shipping address, one line per part, empty parts left out. */
export function shippingLines(
  order: Pick<
    Order,
    | 'shippingName'
    | 'shippingAddressLine1'
    | 'shippingAddressLine2'
    | 'shippingPostalCode'
    | 'shippingCity'
    | 'shippingStateProvince'
    | 'shippingCountry'
  >,
): string[] {
  return [
    order.shippingName,
    order.shippingAddressLine1,
    order.shippingAddressLine2,
    [order.shippingPostalCode, order.shippingCity].filter(Boolean).join(' '),
    order.shippingStateProvince,
    order.shippingCountry,
  ].filter((line): line is string => Boolean(line && line.trim()))
}
