import type { OrderHistoryAction, OrderStatus } from './order-status'

/**
 * The shapes the admin API answers with (spec section 3, admin views), shared by the server
 * that builds them and the admin screens that read them.
 */

/** The spec's admin view of a product: every product, deleted ones included. */
export type AdminProduct = {
  id: number | string
  name: string
  type: 'DIGITAL' | 'PHYSICAL'
  priceEUR: number
  /** A printed book's shipping, added at checkout (0: included in the price). */
  shippingCostEUR: number
  totalStock: number
  currentStock: number
  shortDescription: string
  isAvailable: boolean
  coverImageUrl: string | null
  pdfFilename: string | null
  createdAt: string
  deletedAt: string | null
}

/** One payment seen on the chain for an order, as the owner needs it to settle exceptions. */
export type AdminPayment = {
  txid: string
  vout: number
  satoshis: number
  seenAt: string
  confirmedAt: string | null
  late: boolean
  /** Double-spent or dropped after it was seen (then it does not count), with the reason. */
  invalidatedAt: string | null
  invalidReason: string | null
  /** The block an index says it is in; it counts as confirmed only with `proof`. */
  blockHeight: number | null
  /**
   * A source reported a competing spend of one of its inputs: it does not count until the chain
   * settles it (invalid on evidence, or counted again). Null while nothing is in doubt.
   */
  doubtedAt: string | null
  doubtReason: string | null
  /** The second source's (ARC's) last word on the transaction, and when; null: not asked. */
  arcStatus: string | null
  arcCheckedAt: string | null
  /** The merkle proof the shop verified itself; null until one verified. */
  proof: PaymentProof | null
  /** A proof that did not verify: a finding for the owner, never a confirmation. */
  proofProblem: string | null
}

/**
 * A merkle proof of a payment as the shop verified it: the path leads from the txid to the merkle
 * root of the header of the block named, whose hash and proof of work the shop recomputed.
 */
export type PaymentProof = {
  verifiedAt: string
  blockHeight: number | null
  blockHash: string | null
  merkleRoot: string | null
  /** The path that verified (BRC-74 BUMP, hex). */
  merklePath: string | null
  /** Which source gave the path, the header and the block hash. */
  sources: string | null
}

/** The spec's admin order plus what an owner of a BSV shop needs to see. */
export type AdminOrder = {
  id: string
  createdAt: string
  userEmail: string
  product: { id: number | string | null; name: string; type: 'DIGITAL' | 'PHYSICAL' }
  /** Price paid, in EUR (historical field name), shipping included. */
  priceAtPurchaseUSD: number
  /** The part of the price that paid for shipping a printed book (0: included, null: digital). */
  shippingCostEUR: number | null
  amountSatoshiExpected: number
  amountSatoshiReceived: number
  /** EUR per BSV at checkout (historical field name). */
  bsvUsdRateAtPurchase: number
  paymentTxid: string | null
  paymentAddress: string
  addressIndex: number
  gatewayExpiresAt: string
  tokenAddress: string | null
  status: OrderStatus
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
  flags: { paidLate: boolean; paidPartial: boolean; paidOver: boolean; paidInvalid: boolean }
  /** A flag is up and the owner has not settled it since (mark paid, cancel, refund, settle). */
  needsSettling: boolean
  settledAt: string | null
  /** The owner asked for a look at the chain that has not happened yet. */
  recheckRequestedAt: string | null
  /**
   * Why the payment worker could not process this order (its last try threw), or null: it is
   * retried on its own, and the notice goes at its next success.
   */
  attention: string | null
  /** Since when the order has needed attention. */
  attentionSince: string | null
}

/** One entry of an order's history: who did what, when and why. */
export type AdminOrderEvent = {
  at: string
  /** A staff member's e-mail, or "system" (the payment engine, delivery). */
  by: string
  action: OrderHistoryAction
  fromStatus: OrderStatus | null
  toStatus: OrderStatus | null
  note: string | null
  txid: string | null
}

/** One order with every payment received and its history (GET /api/admin/orders/{id}). */
export type AdminOrderDetail = AdminOrder & { payments: AdminPayment[]; history: AdminOrderEvent[] }

/** The owner's wallet and the addresses the shop gave out (0/n of the xpub). */
export type AddressGaps = {
  /** Unused addresses after the last one that received money (what a new payment must pass). */
  current: number
  /**
   * The longest run of unused addresses before one that received money: a wallet whose gap
   * limit is at most this stops scanning before that money.
   */
  longestBeforeFunds: number
  /** The gap limit the owner's wallet is assumed to scan (WALLET_GAP_LIMIT). */
  walletGapLimit: number
}

/** What the dashboard shows beyond the spec's cards. */
export type AdminStats = {
  /** The highest BIP32 index (0/n) given to an order, or null before the first order. */
  highestAddressIndexUsed: number | null
  /** Physical orders paid and waiting to be shipped. */
  ordersAwaitingShipment: number
  /** Orders with a late, partial, over or invalid payment to settle by hand. */
  ordersWithPaymentExceptions: number
  /** Orders the payment worker could not process (see AdminOrder.attention). */
  ordersNeedingAttention: number
  addressGaps: AddressGaps
  /** 'off': production runs without e-mail on purpose (EMAIL_DELIVERY=off), and says so. */
  emailDelivery: 'smtp' | 'log' | 'off'
  health: AdminHealth
  settling: SettlingBacklog
}

/**
 * Paid orders the shop has not finished with: not delivered yet (PAID without `fulfilledAt`),
 * and delivered with the buyer's "paid" e-mail still in the outbox. The two never overlap:
 * delivery queues that e-mail in the same write that sets `fulfilledAt`.
 */
export type SettlingBacklog = {
  /** Paid orders not delivered yet. */
  undelivered: number
  /** Delivered orders whose buyer "paid" e-mail is still waiting to be sent. */
  unmailed: number
  /**
   * When the oldest item began to wait: an undelivered order's change to PAID (`paidAt`), or
   * when an unsent "paid" e-mail was queued. Null when nothing waits.
   */
  oldestAt: string | null
  /** Seconds since `oldestAt` when the figures were read; null when nothing waits. */
  oldestAgeSeconds: number | null
}

/** Is the shop's machinery working: the payment worker, the chain source, the e-mail outbox. */
export type AdminHealth = {
  worker: {
    /** A worker holds the lease now (it renews it every few seconds while it runs). */
    running: boolean
    /** When the lease ran out or runs out; null when no worker ever ran. */
    leaseUntil: string | null
  }
  chain: {
    source: 'simulator' | 'whatsonchain'
    /** The API's origin (no path, no key). */
    origin: string
    /** The last time the worker looked up an order's address on the chain. */
    lastCheckAt: string | null
    /** The last look at the watched orders that succeeded, as the worker recorded it. */
    lastLookOkAt: string | null
    /** The chain source's own figures as the worker last recorded them; null before it did. */
    usage: ChainUsage | null
    /**
     * Each chain source the worker asks, one entry each: WhatsOnChain (the figures above, again),
     * then ARC when it is configured or has recorded figures.
     */
    sources: ChainSourceHealth[]
    /** The owner is alerted after this many minutes without a successful look (CHAIN_ALERT_MINUTES). */
    alertAfterMinutes: number
    /**
     * The alert of the outage under way: no look has succeeded since `since` (null: none ever
     * did) and the owner was told at `alertedAt`. Null while looks succeed.
     */
    outage: { since: string | null; alertedAt: string } | null
  }
  email: {
    delivery: 'smtp' | 'log' | 'off'
    pending: number
    failed: number
    lastSentAt: string | null
    /** The last failed message's error, for the owner to act on. */
    lastError: string | null
  }
}

/** The chain source's requests against its plan's limits, and what went wrong (the worker's view). */
export type ChainUsage = {
  /** When the worker recorded these figures (every few seconds while it runs). */
  recordedAt: string
  /** Requests sent since midnight UTC, and the plan's daily cap when known. */
  callsToday: number
  capPerDay: number | null
  /** Requests begun in the last second, and the most the client begins in one. */
  callsLastSecond: number
  limitPerSecond: number
  /** Until when the source asked not to be called (a 429's Retry-After); null when it did not. */
  throttledUntil: string | null
  /**
   * Errors of the last hour by kind (throttled, daily-cap, server, network, not-found, address,
   * bad-answer), the most frequent first.
   */
  errorsLastHour: { kind: string; count: number }[]
  /** Addresses whose last look failed, the most failures first (at most 50 are kept). */
  failingAddresses: ChainFailingAddress[]
  /** How many addresses were failing in all (more than listed when the list is cut). */
  failingAddressCount: number
}

/** One chain source on the owner's chain-health card. */
export type ChainSourceHealth = {
  name: 'WhatsOnChain' | 'ARC'
  /** The API's origin (no path, no key); null for ARC when it is not configured (any longer). */
  origin: string | null
  /** The source's own figures as the worker last recorded them; null before it did. */
  usage: ChainUsage | null
  /** The source's last good answer (for WhatsOnChain, the last look that succeeded). */
  lastAnswerAt: string | null
  /** Where WhatsOnChain and ARC said different things about a transaction, the newest first. */
  disagreements: ChainDisagreement[]
  /** ARC's callbacks to the shop (ARC only): where they go, and how many came lately. */
  callbacks?: ArcCallbacksHealth
}

/** ARC's callbacks as the shop received them (the worker asks ARC about each payment named). */
export type ArcCallbacksHealth = {
  /** Where ARC posts them; null when the shop registers none (ARC_CALLBACK_URL=off). */
  url: string | null
  /** When the last one came; null before one did (in the last day). */
  lastAt: string | null
  /** How many came in the last 24 hours. */
  lastDay: number
}

/** WhatsOnChain and ARC said different things about one transaction, at `at`. */
export type ChainDisagreement = {
  txid: string
  at: string
  /** What each source said. */
  whatsonchain: string
  arc: string
}

export type ChainFailingAddress = {
  address: string
  reason: string
  /** Since when its looks fail. */
  since: string
  /** Looks in a row that failed. */
  failures: number
  /** The order the address was given to, when there is one. */
  orderId: string | null
}

/** Paid orders in one period (UTC): how many, and what they brought in EUR and in satoshis. */
export type SalesBucket = {
  /** The period's first day, YYYY-MM-DD (weeks start on Monday). */
  start: string
  orders: number
  eur: number
  satoshis: number
}

/**
 * Sales (GET /api/admin/sales): paid orders only (paid, being delivered, shipped, failed
 * fulfilment), by the day they were paid, oldest period first, empty periods included.
 */
export type AdminSales = {
  day: SalesBucket[]
  week: SalesBucket[]
  month: SalesBucket[]
  total: Omit<SalesBucket, 'start'>
}

/**
 * The settings in force (GET /api/admin/settings, read-only: they come from the environment).
 * No secret is ever part of it: for a password or key, only whether it is set.
 */
export type AdminSettings = {
  shop: {
    name: string
    publicUrl: string
    supportEmail: string
    testMode: boolean
    storage: 'local' | 's3'
  }
  payment: {
    network: 'main' | 'test'
    /** The extended public key, shortened: enough to recognise the wallet. */
    xpub: string
    chainSource: 'simulator' | 'whatsonchain'
    chainOrigin: string
    chainApiKeySet: boolean
    confirmationsRequired: number
    orderExpiryMinutes: number
    paymentGraceSeconds: number
    lateWatchDays: number
    walletGapLimit: number
    rateSource: 'fixed' | 'live'
    rateCacheSeconds: number
    rateBoundsEUR: { min: number; max: number }
    /** The rate now, EUR per BSV, or why there is none. */
    rate: { eur: number } | { error: string }
  }
  email: {
    delivery: 'smtp' | 'log' | 'off'
    smtpHost: string | null
    smtpPort: number
    smtpUserSet: boolean
    smtpPasswordSet: boolean
    from: string
    ownerAlertsTo: string | null
    webhookOrigin: string | null
  }
  downloads: { linkHours: number; maxUses: number }
  health: AdminHealth
}

/** One derived address of the watch-only view. */
export type AdminAddress = {
  index: number
  address: string
  /** The order it was given to, or null when its order was never stored (a failed checkout). */
  orderId: string | null
  status: string | null
  /** Satoshis received on time or late (invalid payments excluded). */
  receivedSatoshis: number
}

export type AdminAddressPage = {
  addresses: AdminAddress[]
  totalPages: number
  currentPage: number
}
