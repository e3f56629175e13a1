import type { Payload } from 'payload'

import { slugs } from '../collections/slugs'
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

/**
 * PostgreSQL: the same conditional upsert; concurrent hits on one key wait for its row in turn,
 * each adding to the count the one before it left.
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
  const result = await preparedQuery(
    postgres(payload),
    `INSERT INTO rate_limits (key, hits, reset_at, updated_at, created_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN rate_limits.reset_at <= $4 THEN excluded.hits
         ELSE greatest(rate_limits.hits + $5, 0) END,
       reset_at = CASE WHEN rate_limits.reset_at <= $4 THEN excluded.reset_at ELSE rate_limits.reset_at END,
       updated_at = excluded.updated_at
     RETURNING hits, reset_at`,
    [key, first, resetAt.toISOString(), now.toISOString(), delta],
  )
  const row = result.rows[0]
  return { hits: Number(row?.hits ?? first), resetAt: dateOf(row?.reset_at) }
}
