/**
 * Order statuses and the one table of allowed moves between them.
 * The worker and the admin API both go through `assertTransition`, so a move that is not
 * in this table cannot happen anywhere in the shop.
 */
export const ORDER_STATUSES = [
  'AWAITING_PAYMENT',
  'PAYMENT_DETECTED',
  'UNDERPAID',
  'PAID',
  'PROCESSING_DELIVERY',
  'SHIPPED',
  'EXPIRED',
  'ERROR_FULFILLMENT',
  // The owner's decision: the order will not be delivered (an invalid payment, a refund).
  'CANCELLED',
] as const

export type OrderStatus = (typeof ORDER_STATUSES)[number]

export const INITIAL_ORDER_STATUS: OrderStatus = 'AWAITING_PAYMENT'

const ALLOWED: Record<OrderStatus, readonly OrderStatus[]> = {
  AWAITING_PAYMENT: ['PAYMENT_DETECTED', 'UNDERPAID', 'PAID', 'EXPIRED', 'CANCELLED'],
  // Back to waiting when the money seen is double-spent or dropped before expiry.
  UNDERPAID: ['AWAITING_PAYMENT', 'PAYMENT_DETECTED', 'PAID', 'EXPIRED', 'CANCELLED'],
  // A detected payment is the full amount: the order waits for confirmations and does not expire
  // while it holds; if it is double-spent or dropped, the order waits again (before its
  // deadline) or expires (after), and the owner sees the invalid payment.
  PAYMENT_DETECTED: ['PAID', 'AWAITING_PAYMENT', 'UNDERPAID', 'EXPIRED', 'CANCELLED'],
  PAID: ['PROCESSING_DELIVERY', 'ERROR_FULFILLMENT'],
  // A printed book not yet sent can still be cancelled (and refunded) by the owner.
  PROCESSING_DELIVERY: ['SHIPPED', 'CANCELLED'],
  SHIPPED: [],
  // Late payments are recorded and flagged; the owner settles one: marks it paid (the copy is
  // taken again) or cancels it. The payment engine pays an expired order only when its on-time
  // payment comes back confirmed (it was seen before the deadline).
  EXPIRED: ['PAID', 'CANCELLED'],
  // After the owner fixes the cause (for example uploads the missing file) fulfilment is retried;
  // or the owner gives up and refunds.
  ERROR_FULFILLMENT: ['PAID', 'CANCELLED'],
  CANCELLED: [],
}

/**
 * What the owner can do from the admin order screen, and from which statuses. Each action is a
 * move of the table above (or none), recorded in the order's history with who, when and why.
 */
export const OWNER_ORDER_ACTIONS = {
  /** Accept the money (short, late or unconfirmed) or a payment made outside the shop. */
  'mark-paid': {
    to: 'PAID',
    from: ['AWAITING_PAYMENT', 'UNDERPAID', 'PAYMENT_DETECTED', 'EXPIRED'],
  },
  /** Give up the order (an invalid payment, a refund): its copy goes back on the shelf. */
  cancel: {
    to: 'CANCELLED',
    from: [
      'AWAITING_PAYMENT',
      'UNDERPAID',
      'PAYMENT_DETECTED',
      'EXPIRED',
      'ERROR_FULFILLMENT',
      'PROCESSING_DELIVERY',
    ],
  },
  /** Money sent back to the buyer (its txid); the status does not change. */
  refund: { to: null, from: ORDER_STATUSES },
  /** The exception needs nothing more (an overpayment kept, an invalid payment replaced). */
  settle: { to: null, from: ORDER_STATUSES },
} as const satisfies Record<string, { to: OrderStatus | null; from: readonly OrderStatus[] }>

export type OwnerOrderAction = keyof typeof OWNER_ORDER_ACTIONS
export const OWNER_ORDER_ACTION_NAMES = Object.keys(OWNER_ORDER_ACTIONS) as OwnerOrderAction[]

/** What an entry of an order's history records: a status change, an owner's action, a re-check. */
export const ORDER_HISTORY_ACTIONS = [
  'status',
  ...OWNER_ORDER_ACTION_NAMES,
  'recheck',
  // The tracking number of a shipped order corrected (old -> new).
  'tracking',
  // The owner sent the buyer a new download link (no status change).
  'download-link',
] as const
export type OrderHistoryAction = (typeof ORDER_HISTORY_ACTIONS)[number]

/** Whether the owner may take this action on an order in this status. */
export function ownerMayTake(action: OwnerOrderAction, status: OrderStatus): boolean {
  return (OWNER_ORDER_ACTIONS[action].from as readonly OrderStatus[]).includes(status)
}

/** Statuses after which the pay screen stops polling. */
export const FINAL_PAY_SCREEN_STATUSES: readonly OrderStatus[] = [
  'PAID',
  'PROCESSING_DELIVERY',
  'EXPIRED',
  'ERROR_FULFILLMENT',
  'CANCELLED',
]

/** Orders the payment worker still watches (expired ones too, inside the monitoring window). */
export const OPEN_ORDER_STATUSES: readonly OrderStatus[] = [
  'AWAITING_PAYMENT',
  'UNDERPAID',
  'PAYMENT_DETECTED',
]

/**
 * Open orders still waiting for the buyer's money (none seen, or not enough): they hold a copy
 * and their "order created" e-mail, which says how to pay, is still worth sending.
 */
export const WAITING_ORDER_STATUSES: readonly OrderStatus[] = OPEN_ORDER_STATUSES.filter(
  (status) => status !== 'PAYMENT_DETECTED',
)

/** Paid orders, whatever happened after (delivery, shipping, a failed fulfilment). */
export const PAID_ORDER_STATUSES: readonly OrderStatus[] = [
  'PAID',
  'PROCESSING_DELIVERY',
  'SHIPPED',
  'ERROR_FULFILLMENT',
]

/** Nothing moves an order out of these: it is settled for good. */
export const FINAL_ORDER_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter(
  (status) => ALLOWED[status].length === 0,
)

/**
 * The statuses in their groups: open (waiting for money), paid (the money is in, whatever
 * happened after) and final (nothing changes any more). Use these, never lists of literals.
 */
export const ORDER_STATUS_GROUPS = {
  open: OPEN_ORDER_STATUSES,
  paid: PAID_ORDER_STATUSES,
  final: FINAL_ORDER_STATUSES,
} as const
export type OrderStatusGroup = keyof typeof ORDER_STATUS_GROUPS

export function isOrderStatusIn(group: OrderStatusGroup, status: unknown): boolean {
  return (ORDER_STATUS_GROUPS[group] as readonly unknown[]).includes(status)
}

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value)
}

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ALLOWED[from].includes(to)
}

export class ForbiddenTransitionError extends Error {
  constructor(
    readonly from: OrderStatus,
    readonly to: OrderStatus,
  ) {
    super(`Order status cannot change from ${from} to ${to}.`)
    this.name = 'ForbiddenTransitionError'
  }
}

/**
 * Returns true when the move must be made, false when the order is already there
 * (a repeated move is a no-op, so processing stays idempotent), and throws otherwise.
 */
export function assertTransition(from: OrderStatus, to: OrderStatus): boolean {
  if (from === to) return false
  if (!canTransition(from, to)) throw new ForbiddenTransitionError(from, to)
  return true
}
