import type { Order, Payment } from '../../payload-types'

/** One payment seen on the chain for an order, as the owner needs it to settle exceptions. */
export type AdminPayment = {
  txid: string
  vout: number
  satoshis: number
  seenAt: string
  confirmedAt: string | null
  late: boolean
}

/** The spec's admin order (section 3) plus what an owner of a BSV shop needs to see. */
export type AdminOrder = {
  id: string
  createdAt: string
  userEmail: string
  product: { id: number | string | null; name: string; type: 'DIGITAL' | 'PHYSICAL' }
  /** Price paid, in EUR (historical field name). */
  priceAtPurchaseUSD: number
  amountSatoshiExpected: number
  amountSatoshiReceived: number
  /** EUR per BSV at checkout (historical field name). */
  bsvUsdRateAtPurchase: number
  paymentTxid: string | null
  paymentAddress: string
  addressIndex: number
  gatewayExpiresAt: string
  tokenAddress: string | null
  status: Order['status']
  shippingTrackingNumber: string | null
  shippedAt: string | null
  shippingName: string | null
  shippingAddressLine1: string | null
  shippingAddressLine2: string | null
  shippingCity: string | null
  shippingStateProvince: string | null
  shippingPostalCode: string | null
  shippingCountry: string | null
  shippingPhone: string | null
  flags: { paidLate: boolean; paidPartial: boolean; paidOver: boolean }
}

export type AdminOrderDetail = AdminOrder & { payments: AdminPayment[] }

export function toAdminOrder(order: Order): AdminOrder {
  const product = order.product
  return {
    id: order.id,
    createdAt: order.createdAt,
    userEmail: order.userEmail,
    product: {
      id: typeof product === 'object' && product ? product.id : (product ?? null),
      // The name and type at purchase time: a later edit of the product does not rewrite history.
      name: order.productName,
      type: order.productType,
    },
    priceAtPurchaseUSD: order.priceAtPurchaseUSD,
    amountSatoshiExpected: order.amountSatoshiExpected,
    amountSatoshiReceived: order.amountSatoshiReceived ?? 0,
    bsvUsdRateAtPurchase: order.bsvUsdRateAtPurchase,
    paymentTxid: order.paymentTxid ?? null,
    paymentAddress: order.paymentAddress,
    addressIndex: order.addressIndex,
    gatewayExpiresAt: order.gatewayExpiresAt,
    tokenAddress: order.tokenAddress || null,
    status: order.status,
    shippingTrackingNumber: order.shippingTrackingNumber || null,
    shippedAt: order.shippedAt ?? null,
    shippingName: order.shippingName || null,
    shippingAddressLine1: order.shippingAddressLine1 || null,
    shippingAddressLine2: order.shippingAddressLine2 || null,
    shippingCity: order.shippingCity || null,
    shippingStateProvince: order.shippingStateProvince || null,
    shippingPostalCode: order.shippingPostalCode || null,
    shippingCountry: order.shippingCountry || null,
    shippingPhone: order.shippingPhone || null,
    flags: {
      paidLate: Boolean(order.flags?.paidLate),
      paidPartial: Boolean(order.flags?.paidPartial),
      paidOver: Boolean(order.flags?.paidOver),
    },
  }
}

export function toAdminPayment(payment: Payment): AdminPayment {
  return {
    txid: payment.txid,
    vout: payment.vout,
    satoshis: payment.satoshis,
    seenAt: payment.seenAt,
    confirmedAt: payment.confirmedAt ?? null,
    late: Boolean(payment.late),
  }
}
