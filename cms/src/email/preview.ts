import type { EmailKind, OrderEmailKind } from '../collections/EmailOutbox'
import { EMAIL_KINDS, isOrderEmailKind } from '../collections/EmailOutbox'
import type { Env } from '../config/env'
import { originOf } from '../operations/dashboard/getAdminHealth'
import type { Order } from '../payload-types'
import type { ChainOutage, DownloadLink, OrderDownloadLink, ShopInfo } from './templates'

/** The templates the preview page shows: each kind about an order, for a PDF and for a printed book. */
export const PREVIEW_VARIANTS = ['pdf', 'printed'] as const
export type PreviewVariant = (typeof PREVIEW_VARIANTS)[number]

/** The new download links: for one order, and for several. */
export const DOWNLOAD_LINKS_VARIANTS = ['pdf', 'several'] as const

/** The chain source alert is about no book: it has one preview. */
export const previewVariantsOf = (kind: EmailKind): readonly string[] =>
  isOrderEmailKind(kind)
    ? PREVIEW_VARIANTS
    : kind === 'download-links'
      ? DOWNLOAD_LINKS_VARIANTS
      : ['sample']

export const isPreviewKind = (kind: string): kind is EmailKind =>
  (EMAIL_KINDS as readonly string[]).includes(kind)

/** A made-up outage of the shop's chain source: the daily cap spent an hour ago. */
export function sampleChainOutage(
  env: Pick<Env, 'chainSource' | 'wocApiUrl' | 'chainAlertMinutes'>,
): ChainOutage {
  const now = Date.now()
  return {
    source: env.chainSource,
    origin: originOf(env.wocApiUrl),
    since: new Date(now - 60 * 60_000).toISOString(),
    alertAfterMinutes: env.chainAlertMinutes,
    usage: {
      callsToday: 100_000,
      capPerDay: 100_000,
      throttledUntil: null,
      errorsLastHour: [
        { kind: 'daily-cap', count: 1_800 },
        { kind: 'network', count: 2 },
      ],
      failingAddressCount: 0,
    },
  }
}

/** A made-up order, as real as the templates need (test mode's preview page only). */
export function sampleOrder(kind: OrderEmailKind, variant: PreviewVariant): Order {
  const printed = variant === 'printed'
  const now = Date.now()
  return {
    id: '6f1c2b9e-4d7a-4c1e-9b3f-2a8d5e7c1f04',
    status:
      kind === 'order-created'
        ? 'AWAITING_PAYMENT'
        : kind === 'order-shipped'
          ? 'SHIPPED'
          : kind === 'owner-settle'
            ? 'UNDERPAID'
            : printed
              ? 'PROCESSING_DELIVERY'
              : 'PAID',
    product: 1,
    productName: 'The Dual Vote Framework',
    productType: printed ? 'PHYSICAL' : 'DIGITAL',
    userEmail: 'reader@example.com',
    priceAtPurchaseUSD: 24.9,
    bsvUsdRateAtPurchase: 41.5,
    amountSatoshiExpected: 60_000_000,
    amountSatoshiReceived:
      kind === 'owner-settle' ? 45_000_000 : kind === 'order-created' ? 0 : 60_000_000,
    paymentAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
    addressIndex: 42,
    gatewayExpiresAt: new Date(now + 20 * 60_000).toISOString(),
    paymentTxid:
      kind === 'order-created'
        ? null
        : '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b',
    flags: { paidPartial: kind === 'owner-settle' },
    shippingName: printed ? 'Ada Reader' : null,
    shippingAddressLine1: printed ? 'Via Roma 12' : null,
    shippingAddressLine2: printed ? 'Scala B' : null,
    shippingCity: printed ? 'Bologna' : null,
    shippingStateProvince: printed ? 'BO' : null,
    shippingPostalCode: printed ? '40121' : null,
    shippingCountry: printed ? 'Italy' : null,
    shippingPhone: printed ? '+39 051 123 4567' : null,
    shippingTrackingNumber: kind === 'order-shipped' ? 'RR123456789IT' : null,
    createdAt: new Date(now).toISOString(),
    updatedAt: new Date(now).toISOString(),
  } as Order
}

const sampleLink = (shop: ShopInfo, n = 0): DownloadLink => ({
  url: `${shop.publicUrl}/download/pdf/preview-token-not-valid-${String(n).repeat(15)}`,
  expiresAt: new Date(Date.now() + 72 * 3_600_000).toISOString(),
  maxUses: 5,
})

export function sampleDownload(shop: ShopInfo, kind: OrderEmailKind, variant: PreviewVariant) {
  if (kind !== 'order-paid' || variant !== 'pdf') return null
  return sampleLink(shop)
}

/** Made-up paid PDF orders with fresh links: one, or two for `several`. */
export function sampleDownloadLinks(shop: ShopInfo, variant: string): OrderDownloadLink[] {
  const first = sampleOrder('order-paid', 'pdf')
  const links = [{ order: first, download: sampleLink(shop) }]
  if (variant === 'several')
    links.push({
      order: {
        ...first,
        id: '0b7d3e52-9c1a-4f6e-8d2b-5a4c3e1f9b07',
        productName: 'Quanta of Humanity',
        paymentTxid: '9c0f3a4e2b1d5c6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6',
      },
      download: sampleLink(shop, 1),
    })
  return links
}
