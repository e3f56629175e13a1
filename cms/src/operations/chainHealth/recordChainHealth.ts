import type { ChainSourceStats } from '@shop/chain'
import type { Payload } from 'payload'

import { saveChainHealthRow, storedStatsOf } from './chainHealthRow'

/** The payment worker records its figures at most this often (it may pass every half second). */
export const RECORD_EVERY_MS = 5_000

/** When each Payload instance (each worker process) last wrote the row. */
const lastWrite = new WeakMap<Payload, number>()

/**
 * Stores what the chain client counts (calls against the daily cap and the per-second limit,
 * errors of the last hour, failing addresses) and the last look that succeeded, for the owner's
 * dashboard: the web process reads it, the worker that holds the lease writes it. A call within
 * RECORD_EVERY_MS of the last write is skipped. Answers whether it wrote.
 */
export async function recordChainHealth({
  payload,
  stats,
  lastLookOkAt,
  now = new Date(),
}: {
  payload: Payload
  /** The chain client's stats(); undefined from a client that counts nothing. */
  stats: ChainSourceStats | undefined
  /** The last look at the watched orders that succeeded in this process; null before one did. */
  lastLookOkAt: Date | null
  now?: Date
}): Promise<boolean> {
  const last = lastWrite.get(payload)
  if (last !== undefined && now.getTime() - last < RECORD_EVERY_MS && now.getTime() >= last)
    return false
  lastWrite.set(payload, now.getTime())
  try {
    await saveChainHealthRow(payload, {
      stats: stats ? storedStatsOf(stats) : null,
      statsAt: now.toISOString(),
      // A worker that has not looked yet keeps what the last one recorded.
      ...(lastLookOkAt ? { lastLookOkAt: lastLookOkAt.toISOString() } : {}),
    })
    return true
  } catch (error) {
    // The figures are for the owner's eyes: a failed write never stops the pass.
    lastWrite.delete(payload)
    payload.logger.warn({ err: error }, 'could not record the chain source health')
    return false
  }
}
