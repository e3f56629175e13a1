import type { ChainSourceStats } from '@shop/chain'
import type { Payload, PayloadRequest } from 'payload'
import { z } from 'zod'

import { slugs } from '../../collections/slugs'
import type { ChainHealth } from '../../payload-types'

/** The chain sources that have a row of their own in the chain-health collection. */
export type ChainHealthSource = 'whatsonchain' | 'arc'

/** WhatsOnChain's row (the chain source the worker looks up addresses with). */
export const CHAIN_HEALTH_ROW = 'chain-source'

/** ARC's row (the second source, which follows payments by txid). */
export const ARC_HEALTH_ROW = 'arc'

/** Each source's row by name. */
export const chainHealthRowOf = (source: ChainHealthSource = 'whatsonchain'): string =>
  source === 'arc' ? ARC_HEALTH_ROW : CHAIN_HEALTH_ROW

/** The failing addresses kept in the row: the most failures first. */
export const MAX_FAILING_ADDRESSES = 50

/** The disagreements between WhatsOnChain and ARC kept in a row: the newest. */
export const MAX_DISAGREEMENTS = 20

const disagreementSchema = z.object({
  txid: z.string(),
  at: z.string(),
  whatsonchain: z.string(),
  arc: z.string(),
})

export type StoredDisagreement = z.infer<typeof disagreementSchema>

const storedStatsSchema = z.object({
  callsToday: z.number(),
  capPerDay: z.number().nullable(),
  callsLastSecond: z.number(),
  limitPerSecond: z.number(),
  throttledUntil: z.string().nullable(),
  errorsLastHour: z.array(z.object({ kind: z.string(), count: z.number() })),
  failingAddresses: z.array(
    z.object({
      address: z.string(),
      reason: z.string(),
      since: z.string(),
      failures: z.number(),
    }),
  ),
  failingAddressCount: z.number(),
  disagreements: z.array(disagreementSchema).optional(),
})

/** The chain client's figures as the row keeps them: JSON, sorted and cut for the dashboard. */
export type StoredChainStats = z.infer<typeof storedStatsSchema>

export function storedStatsOf(stats: ChainSourceStats): StoredChainStats {
  const failing = [...stats.failingAddresses].sort(
    (a, b) => b.failures - a.failures || a.since.getTime() - b.since.getTime(),
  )
  return {
    callsToday: stats.callsToday,
    capPerDay: stats.capPerDay,
    callsLastSecond: stats.callsLastSecond,
    limitPerSecond: stats.limitPerSecond,
    throttledUntil: stats.throttledUntil?.toISOString() ?? null,
    errorsLastHour: Object.entries(stats.errorsByKind)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] > 0)
      .map(([kind, count]) => ({ kind, count }))
      .sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind)),
    failingAddresses: failing.slice(0, MAX_FAILING_ADDRESSES).map((f) => ({
      address: f.address,
      reason: f.reason,
      since: f.since.toISOString(),
      failures: f.failures,
    })),
    failingAddressCount: failing.length,
  }
}

/** The row's figures, or null when there are none (or they are not of this shape). */
export function parseStoredStats(json: unknown): StoredChainStats | null {
  const parsed = storedStatsSchema.safeParse(json)
  return parsed.success ? parsed.data : null
}

/**
 * The disagreements a row keeps in its stats JSON, the newest first: read on their own, so they
 * show even beside figures of another shape (or none, from a client that counts nothing).
 */
export function parseStoredDisagreements(json: unknown): StoredDisagreement[] {
  const parsed = z.object({ disagreements: z.array(disagreementSchema) }).safeParse(json)
  return parsed.success ? parsed.data.disagreements : []
}

/**
 * The disagreements already kept and the ones given, each once (the worker hands its whole list
 * every time, and a restarted worker starts with none), the newest MAX_DISAGREEMENTS first.
 */
export function mergeDisagreements(
  kept: readonly StoredDisagreement[],
  given: readonly StoredDisagreement[],
): StoredDisagreement[] {
  const byKey = new Map<string, StoredDisagreement>()
  for (const d of [...given, ...kept]) {
    const key = JSON.stringify([d.txid, d.at, d.whatsonchain, d.arc])
    if (!byKey.has(key)) byKey.set(key, d)
  }
  const time = (d: StoredDisagreement) => Date.parse(d.at) || 0
  return [...byKey.values()].sort((a, b) => time(b) - time(a)).slice(0, MAX_DISAGREEMENTS)
}

export async function findChainHealthRow(
  payload: Payload,
  req?: PayloadRequest,
  source: ChainHealthSource = 'whatsonchain',
): Promise<ChainHealth | null> {
  const found = await payload.find({
    collection: slugs.chainHealth,
    where: { name: { equals: chainHealthRowOf(source) } },
    limit: 1,
    depth: 0,
    pagination: false,
    req,
  })
  return (found.docs[0] as ChainHealth | undefined) ?? null
}

type RowData = Partial<Omit<ChainHealth, 'id' | 'name' | 'createdAt' | 'updatedAt'>>

/**
 * Writes `data` to the source's row (WhatsOnChain's unless `source` says), creating it on the
 * first write. Only the payment worker holding the lease writes it; should two ever create it at
 * once, the unique name keeps one and the other updates it.
 */
export async function saveChainHealthRow(
  payload: Payload,
  data: RowData,
  {
    req,
    row,
    source = 'whatsonchain',
  }: { req?: PayloadRequest; row?: ChainHealth | null; source?: ChainHealthSource } = {},
): Promise<ChainHealth> {
  const existing = row === undefined ? await findChainHealthRow(payload, req, source) : row
  const update = (id: ChainHealth['id']) =>
    payload.update({ collection: slugs.chainHealth, id, data, depth: 0, req })
  if (existing) return (await update(existing.id)) as ChainHealth
  try {
    return (await payload.create({
      collection: slugs.chainHealth,
      data: { name: chainHealthRowOf(source), ...data },
      depth: 0,
      req,
    })) as ChainHealth
  } catch (error) {
    const again = await findChainHealthRow(payload, req, source)
    if (!again) throw error
    return (await update(again.id)) as ChainHealth
  }
}

/** The later of two times, either of which may be missing. */
export function latest(...times: (Date | string | null | undefined)[]): Date | null {
  let best: Date | null = null
  for (const time of times) {
    if (!time) continue
    const date = time instanceof Date ? time : new Date(time)
    if (!Number.isNaN(date.getTime()) && (!best || date > best)) best = date
  }
  return best
}
