import type { Order } from '../../payload-types'

/** Who sends: the shop's name, its public address (for links and the logo), its support contact. */
export type ShopInfo = {
  name: string
  publicUrl: string
  supportEmail: string
  /** The block explorer's transaction address, to which a txid is appended. */
  explorerTxUrl: string
}

/** A PDF's download link as the buyer gets it: absolute, with its limits. */
export type DownloadLink = { url: string; expiresAt: string; maxUses: number }

export type EmailProps = {
  shop: ShopInfo
  order: Order
  /** The order-paid e-mail of a PDF. */
  download?: DownloadLink | null
}

/** What the owner is told when no look at the chain has succeeded for a while. */
export type ChainOutage = {
  source: 'simulator' | 'whatsonchain'
  /** The API's origin (no path, no key). */
  origin: string
  /** The last look that succeeded; null when none ever did. */
  since: string | null
  /** CHAIN_ALERT_MINUTES. */
  alertAfterMinutes: number
  /** The chain client's figures when the worker last recorded them, if it did. */
  usage: {
    callsToday: number
    capPerDay: number | null
    throttledUntil: string | null
    errorsLastHour: { kind: string; count: number }[]
    failingAddressCount: number
  } | null
}

export type ChainOutageEmailProps = { shop: ShopInfo; outage: ChainOutage }

/** One order's fresh download link, in the message a buyer asked for or the owner sent. */
export type OrderDownloadLink = { order: Order; download: DownloadLink }

export type DownloadLinksEmailProps = { shop: ShopInfo; links: OrderDownloadLink[] }
