import type { ChainSourceStats } from '@shop/chain'
import type { Payload } from 'payload'

import type { ChainHealthSource, StoredDisagreement } from './chainHealthRow'
import {
  findChainHealthRow,
  mergeDisagreements,
  parseStoredDisagreements,
  saveChainHealthRow,
  storedStatsOf,
} from './chainHealthRow'

/** The payment worker records its figures at most this often (it may pass every half second). */
export const RECORD_EVERY_MS = 5_000

/** When each Payload instance (each worker process) last wrote each source's row. */
const lastWrite = new WeakMap<Payload, Map<ChainHealthSource, number>>()

function lastWritesOf(payload: Payload): Map<ChainHealthSource, number> {
  let writes = lastWrite.get(payload)
  if (!writes) lastWrite.set(payload, (writes = new Map()))
  return writes
}

/**
 * Stores what a chain source's client counts (calls against the daily cap and the per-second
 * limit, errors of the last hour, failing addresses) and its last good answer, for the owner's
 * dashboard: the web process reads it, the worker that holds the lease writes it. Each source
 * has its own row: WhatsOnChain's (`source` 'whatsonchain', the default) and ARC's ('arc').
 *
 * `disagreements` (where WhatsOnChain and ARC said different things about a transaction) join
 * the ones the row already keeps, each once, the newest MAX_DISAGREEMENTS kept, in the row's
 * stats JSON. A call within RECORD_EVERY_MS of the last write of the same source is skipped.
 * Answers whether it wrote.
 */
export async function recordChainHealth({
  payload,
  stats,
  lastLookOkAt,
  now = new Date(),
  source = 'whatsonchain',
  disagreements,
}: {
  payload: Payload
  /** The chain client's stats(); undefined from a client that counts nothing. */
  stats: ChainSourceStats | undefined
  /**
   * The last look at the watched orders that succeeded in this process (for ARC, its last good
   * answer); null before one did.
   */
  lastLookOkAt: Date | null
  now?: Date
  source?: ChainHealthSource
  /** Where WhatsOnChain and ARC disagreed, as the worker noted them. */
  disagreements?: readonly StoredDisagreement[]
}): Promise<boolean> {
  const writes = lastWritesOf(payload)
  const last = writes.get(source)
  if (last !== undefined && now.getTime() - last < RECORD_EVERY_MS && now.getTime() >= last)
    return false
  writes.set(source, now.getTime())
  try {
    const row = await findChainHealthRow(payload, undefined, source)
    const kept = mergeDisagreements(parseStoredDisagreements(row?.stats), disagreements ?? [])
    const figures = stats ? storedStatsOf(stats) : null
    await saveChainHealthRow(
      payload,
      {
        stats: kept.length > 0 ? { ...figures, disagreements: kept } : figures,
        statsAt: now.toISOString(),
        // A worker that has not looked yet keeps what the last one recorded.
        ...(lastLookOkAt ? { lastLookOkAt: lastLookOkAt.toISOString() } : {}),
      },
      { row, source },
    )
    return true
  } catch (error) {
    // The figures are for the owner's eyes: a failed write never stops the pass.
    writes.delete(source)
    payload.logger.warn({ err: error, source }, 'could not record the chain source health')
    return false
  }
}
