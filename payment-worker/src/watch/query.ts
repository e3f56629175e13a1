import type { Where } from 'payload'

import type { OrderStatus } from '@shop/domain'
import { OPEN_ORDER_STATUSES, PAID_ORDER_STATUSES } from '@shop/domain'

import { lateWatchMs } from './interval'

/**
 * What the worker watches, as a query on the orders: every order still waiting for its money,
 * and expired, cancelled or paid orders (late, extra or repeated payments) for LATE_WATCH_DAYS
 * after their expiry.
 */

/** Watched after payment or expiry: only new money on the address matters for them. */
export const SETTLED_WATCHED_STATUSES: readonly OrderStatus[] = [
  'EXPIRED',
  'CANCELLED',
  ...PAID_ORDER_STATUSES,
]

/** The order fields the watch list keeps. */
export const WATCH_FIELDS = {
  paymentAddress: true,
  userEmail: true,
  createdAt: true,
  gatewayExpiresAt: true,
  status: true,
  amountSatoshiReceived: true,
  attentionSince: true,
} as const

export function watchedOrdersWhere(
  now: number,
  settings: { monitoringWindowHours: number; lateWatchDays: number },
): Where {
  const windowStart = new Date(now - lateWatchMs(settings)).toISOString()
  return {
    or: [
      { status: { in: [...OPEN_ORDER_STATUSES] } },
      {
        and: [
          { status: { in: [...SETTLED_WATCHED_STATUSES] } },
          { gatewayExpiresAt: { greater_than: windowStart } },
        ],
      },
    ],
  }
}

/** Orders created since `since` among the watched ones (the pass between full reloads). */
export function newWatchedOrdersWhere(
  now: number,
  since: number,
  settings: { monitoringWindowHours: number; lateWatchDays: number },
  known: readonly string[] = [],
): Where {
  return {
    and: [
      watchedOrdersWhere(now, settings),
      { createdAt: { greater_than: new Date(since).toISOString() } },
      ...(known.length > 0 ? [{ id: { not_in: [...known] } }] : []),
    ],
  }
}

/** Orders the owner asked to re-check from the admin. */
export const RECHECK_WHERE: Where = { recheckRequestedAt: { exists: true } }
