import type { Where } from 'payload'

import type { OrderStatus } from '@shop/domain'
import { OPEN_ORDER_STATUSES, ORDER_STATUSES, PAID_ORDER_STATUSES } from '@shop/domain'

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
  // Set while a payment is in doubt or invalid: the first look reads the payments.
  flags: { paidInvalid: true },
  updatedAt: true,
} as const

type WatchSettings = { monitoringWindowHours: number; lateWatchDays: number }

/** Settled orders whose expiry falls inside the late-watch window. */
function settledInWindow(now: number, settings: WatchSettings): Where {
  return {
    and: [
      { status: { in: [...SETTLED_WATCHED_STATUSES] } },
      { gatewayExpiresAt: { greater_than: new Date(now - lateWatchMs(settings)).toISOString() } },
    ],
  }
}

/** Every watched order: read through the status indexes (the open orders, then the window). */
export function watchedOrdersWhere(now: number, settings: WatchSettings): Where {
  return { or: [{ status: { in: [...OPEN_ORDER_STATUSES] } }, settledInWindow(now, settings)] }
}

/**
 * `watchedOrdersWhere` as a test of one order the worker has read (its status and its expiry in
 * epoch ms): the same rule, for what the worker holds in memory.
 */
export function isWatchedOrder(
  status: string,
  expiresAt: number,
  now: number,
  settings: WatchSettings,
): boolean {
  return (
    OPEN_ORDER_STATUSES.includes(status as OrderStatus) ||
    (SETTLED_WATCHED_STATUSES.includes(status as OrderStatus) &&
      expiresAt > now - lateWatchMs(settings))
  )
}

/** The statuses of orders no longer waiting for their money. */
const NOT_OPEN_STATUSES = ORDER_STATUSES.filter((status) => !OPEN_ORDER_STATUSES.includes(status))

/**
 * The orders `watchedOrdersWhere` finds, written for a read that an index of its own narrows (the
 * orders created since a time). With a status `in` on both sides of the `or`, SQLite (planning
 * without statistics) reads the whole late-watch window through the status indexes and narrows
 * it after, at every read; `not in` is no index's, so the read goes by its own index instead.
 */
function watchedAmongFew(now: number, settings: WatchSettings): Where {
  return { or: [{ status: { not_in: [...NOT_OPEN_STATUSES] } }, settledInWindow(now, settings)] }
}

/**
 * Orders created since `since` among the watched ones (the reads between full reloads), less
 * the `known` ones, read through the createdAt index.
 */
export function newWatchedOrdersWhere(
  now: number,
  since: number,
  settings: WatchSettings,
  known: readonly string[] = [],
): Where {
  return {
    and: [
      { createdAt: { greater_than: new Date(since).toISOString() } },
      watchedAmongFew(now, settings),
      ...(known.length > 0 ? [{ id: { not_in: [...known] } }] : []),
    ],
  }
}

/** Orders the owner asked to re-check from the admin. */
export const RECHECK_WHERE: Where = { recheckRequestedAt: { exists: true } }
