import type { ChainErrorKind, ChainSourceStats } from '../types'

/**
 * What the owner's health view reads of the WhatsOnChain client (its stats()): calls against the
 * daily cap and the per-second limit, the last hour's errors, and the addresses that keep failing.
 */

export const HOUR_MS = 3_600_000

/** The start of the UTC day `now` falls in (when a daily cap starts again). */
const dayOf = (now: number) => Math.floor(now / 86_400_000) * 86_400_000

export type CallStats = ReturnType<typeof createCallStats>

export function createCallStats({
  dailyCap,
  limitPerSecond,
}: {
  dailyCap?: number
  limitPerSecond: number
}) {
  const recentCalls: number[] = []
  let day = { start: 0, count: 0 }
  const errors: { at: number; kind: ChainErrorKind }[] = []
  const failing = new Map<string, { reason: string; since: Date; failures: number }>()

  return {
    /** Counts a request as it is sent. */
    countCall() {
      const now = Date.now()
      while (recentCalls.length > 0 && recentCalls[0]! <= now - 1000) recentCalls.shift()
      recentCalls.push(now)
      if (day.start !== dayOf(now)) day = { start: dayOf(now), count: 0 }
      day.count += 1
    },
    /** Whether the calls counted today have reached the plan's daily cap (when it is known). */
    dailyCapSpent: () => dailyCap !== undefined && day.count >= dailyCap,
    noteError(kind: ChainErrorKind) {
      const now = Date.now()
      while (errors.length > 0 && (errors[0]!.at <= now - HOUR_MS || errors.length > 100_000))
        errors.shift()
      errors.push({ at: now, kind })
    },
    /** An address whose look failed once more. */
    noteFailing(address: string, reason: string) {
      const known = failing.get(address)
      failing.delete(address)
      failing.set(address, {
        reason,
        since: known?.since ?? new Date(),
        failures: (known?.failures ?? 0) + 1,
      })
      // The longest-failing go first once the list is long (addresses no longer watched).
      if (failing.size > 1000) failing.delete(failing.keys().next().value!)
    },
    /** An address read to its end: it is no longer failing. */
    noteReadable(address: string) {
      failing.delete(address)
    },
    /** The health view, with the Retry-After window the client keeps (`throttledUntil`, ms). */
    snapshot(throttledUntil: number): ChainSourceStats {
      const now = Date.now()
      const errorsByKind: Partial<Record<ChainErrorKind, number>> = {}
      for (const { at, kind } of errors)
        if (at > now - HOUR_MS) errorsByKind[kind] = (errorsByKind[kind] ?? 0) + 1
      return {
        callsToday: day.start === dayOf(now) ? day.count : 0,
        capPerDay: dailyCap ?? null,
        callsLastSecond: recentCalls.filter((t) => t > now - 1000).length,
        limitPerSecond,
        throttledUntil: throttledUntil > now ? new Date(throttledUntil) : null,
        errorsByKind,
        failingAddresses: [...failing].map(([address, f]) => ({ address, ...f })),
      }
    },
  }
}
