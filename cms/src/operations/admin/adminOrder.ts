import type { AdminOrder, AdminOrderEvent, AdminPayment } from '@shop/domain'
import { isPhysical, normalizeProductType } from '@shop/domain'

import type { Order, Payment } from '../../payload-types'
import { needsSettling } from './needsSettling'

export function toAdminOrder(order: Order): AdminOrder {
  const product = order.product
  return {
    id: order.id,
    createdAt: order.createdAt,
    userEmail: order.userEmail,
    product: {
      id: typeof product === 'object' && product ? product.id : (product ?? null),
      // The name and type at purchase time: a later edit of the product does not rewrite history.
      // An order imported from the old shop may say PDF or EPUB: shown as DIGITAL.
      name: order.productName,
      type: normalizeProductType(order.productType) ?? order.productType,
    },
    priceAtPurchaseUSD: order.priceAtPurchaseUSD,
    shippingCostEUR: isPhysical(order.productType) ? (order.shippingCostEUR ?? 0) : null,
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
      paidInvalid: Boolean(order.flags?.paidInvalid),
    },
    needsSettling: needsSettling(order),
    settledAt: order.settledAt ?? null,
    recheckRequestedAt: order.recheckRequestedAt ?? null,
    attention: order.attention || null,
    attentionSince: order.attentionSince ?? null,
  }
}

export function toAdminOrderHistory(order: Order): AdminOrderEvent[] {
  return (order.history ?? []).map((entry) => ({
    at: entry.at,
    by: entry.by,
    action: entry.action,
    fromStatus: entry.fromStatus ?? null,
    toStatus: entry.toStatus ?? null,
    note: entry.note ?? null,
    txid: entry.txid ?? null,
  }))
}

export function toAdminPayment(payment: Payment): AdminPayment {
  return {
    txid: payment.txid,
    vout: payment.vout,
    satoshis: payment.satoshis,
    seenAt: payment.seenAt,
    confirmedAt: payment.confirmedAt ?? null,
    late: Boolean(payment.late),
    invalidatedAt: payment.invalidatedAt ?? null,
    invalidReason: payment.invalidReason ?? null,
    blockHeight: payment.blockHeight ?? null,
    doubtedAt: payment.doubtedAt ?? null,
    doubtReason: payment.doubtReason || null,
    arcStatus: payment.arcStatus || null,
    arcCheckedAt: payment.arcCheckedAt ?? null,
    // Only a proof the shop verified is shown as one; a refused one is `proofProblem`.
    proof: payment.proofVerifiedAt
      ? {
          verifiedAt: payment.proofVerifiedAt,
          blockHeight: payment.proofBlockHeight ?? null,
          blockHash: payment.proofBlockHash || null,
          merkleRoot: payment.proofMerkleRoot || null,
          merklePath: payment.proofMerklePath || null,
          sources: payment.proofSources || null,
        }
      : null,
    proofProblem: payment.proofProblem || null,
  }
}

export type {
  AdminOrder,
  AdminOrderDetail,
  AdminOrderEvent,
  AdminPayment,
  PaymentProof,
} from '@shop/domain'
