import type { Payload } from 'payload'

import { slugs } from '../collections/slugs'
import type { PgConnection, PgPool } from './engine'
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
}): Promise<{ hits: number; resetAt: Date }> {
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

type Hit = {
  values: unknown[]
  resolve: (row: Record<string, unknown> | undefined) => void
  reject: (error: unknown) => void
}

/** Hits waiting for the next write of their turn of the event loop, per pool. */
const pendingHits = new WeakMap<PgPool, Hit[]>()

/**
 * PostgreSQL: the same conditional upsert; concurrent hits on one key wait for its row in turn,
 * each adding to the count the one before it left. The hits of the same turn of the event loop
 * (a rush's checkouts) are written in one transaction, one statement each in the order they
 * came: one transaction instead of one each (the table is unlogged, so no commit waits for the
 * disk, but each still took a transaction of its own).
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
}): Promise<{ hits: number; resetAt: Date }> {
  const first = Math.max(delta, 0)
  const pool = postgres(payload)
  const row = await new Promise<Record<string, unknown> | undefined>((resolve, reject) => {
    let pending = pendingHits.get(pool)
    if (!pending) {
      pending = []
      pendingHits.set(pool, pending)
      setImmediate(() => void writeHits(pool))
    }
    pending.push({
      values: [key, first, resetAt.toISOString(), now.toISOString(), delta],
      resolve,
      reject,
    })
  })
  return { hits: Number(row?.hits ?? first), resetAt: dateOf(row?.reset_at) }
}

/** Writes the turn's hits: alone on the pool, or together in one transaction. */
async function writeHits(pool: PgPool) {
  const hits = pendingHits.get(pool) ?? []
  pendingHits.delete(pool)
  if (hits.length === 1) {
    const [hit] = hits as [Hit]
    await preparedQuery(pool, COUNT_ON_POSTGRES, hit.values).then(
      (result) => hit.resolve(result.rows[0]),
      hit.reject,
    )
    return
  }
  let connection: PgConnection | undefined
  let rows: Map<Hit, Record<string, unknown> | undefined> | undefined
  try {
    connection = await pool.connect()
    await connection.query('BEGIN')
    // In the keys' order (a key's own hits in the order they came): every transaction takes the
    // rows it locks in one order, so two of them (a second web process's) never deadlock.
    const byKey = [...hits].sort((a, b) => String(a.values[0]).localeCompare(String(b.values[0])))
    const counted = new Map<Hit, Record<string, unknown> | undefined>()
    for (const hit of byKey)
      counted.set(hit, (await preparedQuery(connection, COUNT_ON_POSTGRES, hit.values)).rows[0])
    await connection.query('COMMIT')
    rows = counted
  } catch {
    // Nothing of the turn was counted: each hit is counted again alone, and fails alone.
    const broken = await connection?.query('ROLLBACK').then(
      () => false,
      () => true,
    )
    connection?.release(broken)
    connection = undefined
  }
  connection?.release()
  if (rows) {
    for (const hit of hits) hit.resolve(rows.get(hit))
    return
  }
  for (const hit of hits)
    await preparedQuery(pool, COUNT_ON_POSTGRES, hit.values).then(
      (result) => hit.resolve(result.rows[0]),
      hit.reject,
    )
}
