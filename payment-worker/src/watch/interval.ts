/**
 * How often the worker looks at an order that is no longer fresh (a pure function, unit tested):
 * the intervals grow with the order's age, so a late payment shows within minutes on the first
 * day and within the hour for a month, inside the chain source's request budget.
 *
 * - before and up to MONITORING_WINDOW_HOURS after the deadline: a quarter of the order's age,
 *   between WORKER_SLOW_POLL_MS and 5 minutes;
 * - then up to 7 days after it: every 30 minutes;
 * - then up to LATE_WATCH_DAYS after it: every 3 hours; after that, not at all (the owner can
 *   still ask for a look from the admin).
 */
export const CLOSE_WATCH_MAX_INTERVAL_MS = 5 * 60_000
export const WEEK_WATCH_INTERVAL_MS = 30 * 60_000
export const MONTH_WATCH_INTERVAL_MS = 3 * 60 * 60_000
const WEEK_MS = 7 * 24 * 3_600_000

export type WatchIntervalSettings = {
  workerSlowPollMs: number
  monitoringWindowHours: number
}

export function olderOrderIntervalMs(
  order: { createdAt: number; deadline: number },
  now: number,
  settings: WatchIntervalSettings,
): number {
  const sinceDeadline = now - order.deadline
  if (sinceDeadline <= settings.monitoringWindowHours * 3_600_000)
    return Math.min(
      CLOSE_WATCH_MAX_INTERVAL_MS,
      Math.max(settings.workerSlowPollMs, (now - order.createdAt) / 4),
    )
  if (sinceDeadline <= WEEK_MS) return WEEK_WATCH_INTERVAL_MS
  return MONTH_WATCH_INTERVAL_MS
}

/** Orders whose deadline passed more than this long ago are no longer watched. */
export function lateWatchMs(settings: { monitoringWindowHours: number; lateWatchDays: number }) {
  return Math.max(settings.monitoringWindowHours * 3_600_000, settings.lateWatchDays * 86_400_000)
}
