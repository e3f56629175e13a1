import type { Payload } from 'payload'

import { slugs } from '../collections/slugs'
import type { PgPool } from './engine'
import { dateOf, engineOf, mongo, postgres, preparedQuery, sqlite, withoutSync } from './engine'

/**
 * Counts one hit (delta 1) or takes one back (delta -1, a request the limit skips) for `key` in
 * its current window, starting a new window of windowMs once the last one ended: the hits and
 * the window's end after the change. One conditional upsert, so every web process counts into
 * the same row.
 */
export async function countRateLimitHit({
  payload,
  key,
  windowMs,
  delta,
}: {
  payload: Payload
  key: string
  windowMs: number
  delta: 1 | -1
}): Promise<Counted> {
  const now = new Date()
  const resetAt = new Date(now.getTime() + windowMs)
  const first = Math.max(delta, 0)
  if (engineOf(payload) === 'mongodb') {
    const expired = {
      $or: [{ $lte: ['$resetAt', now] }, { $eq: [{ $type: '$resetAt' }, 'missing'] }],
    }
    const doc = await mongo(payload, slugs.rateLimits)
      .findOneAndUpdate(
        { key },
        [
          {
            $set: {
              hits: {
                $cond: [expired, first, { $max: [{ $add: ['$hits', delta] }, 0] }],
              },
              resetAt: { $cond: [expired, resetAt, '$resetAt'] },
              updatedAt: now,
              createdAt: { $ifNull: ['$createdAt', now] },
            },
          },
        ],
        { new: true, upsert: true },
      )
      .lean()
    return { hits: Number(doc?.hits ?? first), resetAt: new Date(doc?.resetAt as Date) }
  }
  if (engineOf(payload) === 'postgres')
    return countOnPostgres({ payload, key, resetAt, now, delta })
  const at = now.toISOString()
  // A counter lost in a power cut harms nobody: no fsync, which would block the event loop for a
  // millisecond or more on every checkout.
  const result = await withoutSync(payload, {
    sql: `INSERT INTO rate_limits (key, hits, reset_at, updated_at, created_at) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (key) DO UPDATE SET
            hits = CASE WHEN rate_limits.reset_at <= ? THEN ? ELSE max(rate_limits.hits + ?, 0) END,
            reset_at = CASE WHEN rate_limits.reset_at <= ? THEN excluded.reset_at ELSE rate_limits.reset_at END,
            updated_at = excluded.updated_at
          RETURNING hits, reset_at`,
    args: [key, first, resetAt.toISOString(), at, at, at, first, delta, at],
  })
  const row = result.rows[0]
  return { hits: Number(row?.hits ?? first), resetAt: new Date(String(row?.reset_at)) }
}

/** Forgets one key's window (a limit reset by hand). */
export async function resetRateLimit({ payload, key }: { payload: Payload; key: string }) {
  await payload.delete({ collection: slugs.rateLimits, where: { key: { equals: key } } })
}

/** Sweeps windows that ended before `before` (they would start afresh anyway). */
export async function sweepRateLimits({ payload, before }: { payload: Payload; before: Date }) {
  if (engineOf(payload) === 'mongodb') {
    await payload.delete({
      collection: slugs.rateLimits,
      where: { resetAt: { less_than: before.toISOString() } },
    })
    return
  }
  if (engineOf(payload) === 'postgres') {
    await postgres(payload).query('DELETE FROM rate_limits WHERE reset_at < $1', [
      before.toISOString(),
    ])
    return
  }
  await sqlite(payload).execute({
    sql: 'DELETE FROM rate_limits WHERE reset_at < ?',
    args: [before.toISOString()],
  })
}

const COUNT_ON_POSTGRES = `INSERT INTO rate_limits (key, hits, reset_at, updated_at, created_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN rate_limits.reset_at <= $4 THEN excluded.hits
         ELSE greatest(rate_limits.hits + $5, 0) END,
       reset_at = CASE WHEN rate_limits.reset_at <= $4 THEN excluded.reset_at ELSE rate_limits.reset_at END,
       updated_at = excluded.updated_at
     RETURNING hits, reset_at`

/**
 * A turn's hits in one statement: each key once with its number of hits, in the keys' order (a
 * second web process's statement locks the same rows in the same order, so the two never
 * deadlock), a new window started where the last one ended.
 */
const COUNT_TURN_ON_POSTGRES = `INSERT INTO rate_limits (key, hits, reset_at, updated_at, created_at)
     SELECT t.key, t.hits, t.reset_at, $4, $4
       FROM unnest($1::varchar[], $2::numeric[], $3::timestamptz[]) AS t(key, hits, reset_at)
       ORDER BY t.key
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN rate_limits.reset_at <= $4 THEN excluded.hits
         ELSE rate_limits.hits + excluded.hits END,
       reset_at = CASE WHEN rate_limits.reset_at <= $4 THEN excluded.reset_at ELSE rate_limits.reset_at END,
       updated_at = excluded.updated_at
     RETURNING key, hits, reset_at`

type Counted = { hits: number; resetAt: Date }
type TurnHit = {
  key: string
  resetAt: Date
  now: Date
  resolve: (counted: Counted) => void
  reject: (error: unknown) => void
}

/** The hits counted in this turn of the event loop, per pool, written at its end. */
const turnHits = new WeakMap<PgPool, TurnHit[]>()

/**
 * PostgreSQL: the same conditional upsert; concurrent hits on one key wait for its row in turn,
 * each adding to the count the one before it left. The hits (delta 1) of one turn of the event
 * loop, a rush's checkouts, go in one statement: each was a transaction of its own, one of
 * checkout's two per order. A hit taken back (delta -1, rare) goes alone: its floor at 0 makes
 * the counts it leaves depend on every hit before it.
 */
async function countOnPostgres({
  payload,
  key,
  resetAt,
  now,
  delta,
}: {
  payload: Payload
  key: string
  resetAt: Date
  now: Date
  delta: 1 | -1
}): Promise<Counted> {
  const pool = postgres(payload)
  if (delta === 1)
    return new Promise<Counted>((resolve, reject) => {
      let pending = turnHits.get(pool)
      if (!pending) {
        pending = []
        turnHits.set(pool, pending)
        setImmediate(() => void countTurn(pool))
      }
      pending.push({ key, resetAt, now, resolve, reject })
    })
  return countAlone(pool, { key, resetAt, now }, delta)
}

async function countAlone(
  pool: PgPool,
  { key, resetAt, now }: Pick<TurnHit, 'key' | 'resetAt' | 'now'>,
  delta: 1 | -1,
): Promise<Counted> {
  const first = Math.max(delta, 0)
  const result = await preparedQuery(pool, COUNT_ON_POSTGRES, [
    key,
    first,
    resetAt.toISOString(),
    now.toISOString(),
    delta,
  ])
  const row = result.rows[0]
  return { hits: Number(row?.hits ?? first), resetAt: dateOf(row?.reset_at) }
}

/**
 * Writes the turn's hits. A key counted n times whose row holds F after the statement gave its
 * hits F - n + 1 ... F, in the order they came, as n statements one after the other would have.
 * When the statement fails, each hit is counted alone, and fails alone.
 */
async function countTurn(pool: PgPool) {
  const hits = turnHits.get(pool) ?? []
  turnHits.delete(pool)
  if (hits.length === 1) {
    const [hit] = hits as [TurnHit]
    await countAlone(pool, hit, 1).then(hit.resolve, hit.reject)
    return
  }
  const byKey = new Map<string, TurnHit[]>()
  for (const hit of hits) {
    const ofKey = byKey.get(hit.key)
    if (ofKey) ofKey.push(hit)
    else byKey.set(hit.key, [hit])
  }
  const keys = [...byKey.keys()].sort()
  // The turn's latest moment: a window that ended by then starts afresh.
  const now = new Date(Math.max(...hits.map((hit) => hit.now.getTime())))
  let rows: Map<string, Record<string, unknown>>
  try {
    const result = await preparedQuery(pool, COUNT_TURN_ON_POSTGRES, [
      keys,
      keys.map((key) => byKey.get(key)!.length),
      keys.map((key) => byKey.get(key)![0]!.resetAt.toISOString()),
      now.toISOString(),
    ])
    rows = new Map(result.rows.map((row) => [String(row.key), row]))
  } catch {
    for (const hit of hits) await countAlone(pool, hit, 1).then(hit.resolve, hit.reject)
    return
  }
  for (const [key, keyHits] of byKey) {
    const row = rows.get(key)
    const total = Number(row?.hits ?? keyHits.length)
    const resetAt = dateOf(row?.reset_at)
    keyHits.forEach((hit, i) => hit.resolve({ hits: total - keyHits.length + 1 + i, resetAt }))
  }
}
