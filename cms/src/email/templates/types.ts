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
