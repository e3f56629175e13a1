import type { Payload } from 'payload'

import { slugs } from '../collections/slugs'
import { engineOf, mongo, postgres, sqlite } from './engine'

/** The payment worker's lease: one worker process watches the chain at a time. */
export const WORKER_LEASE = 'payment-worker'

/**
 * Takes or renews the lease `name` for `holder` until now + ttlMs: the lease's epoch when
 * `holder` holds it (it held it already, or the last holder's time ran out), null while another
 * holder's lease is still running. A renewal of a running lease keeps its epoch; any other
 * successful claim (a take-over, or the same holder after its lease lapsed) starts the next
 * one. One conditional upsert: two claimants can never both get it.
 */
export async function claimLease({
  payload,
  name,
  holder,
  ttlMs,
}: {
  payload: Payload
  name: string
  holder: string
  ttlMs: number
}): Promise<number | null> {
  const now = new Date()
  const expiresAt = new Date(now.getTime() + ttlMs)
  if (engineOf(payload) === 'mongodb') {
    try {
      const running = { $and: [{ $eq: ['$holder', holder] }, { $gte: ['$expiresAt', now] }] }
      const doc = await mongo(payload, slugs.leases)
        .findOneAndUpdate(
          { name, $or: [{ holder }, { expiresAt: { $lt: now } }] },
          [
            {
              $set: {
                epoch: { $cond: [running, '$epoch', { $add: [{ $ifNull: ['$epoch', 0] }, 1] }] },
                holder,
                expiresAt,
                updatedAt: now,
                createdAt: { $ifNull: ['$createdAt', now] },
              },
            },
          ],
          { new: true, upsert: true },
        )
        .lean()
      return doc?.holder === holder ? Number(doc.epoch) : null
    } catch (error) {
      // The upsert met the unique name: the lease exists and another holder's time runs.
      if ((error as { code?: number }).code === 11000) return null
      throw error
    }
  }
  if (engineOf(payload) === 'postgres')
    return claimOnPostgres({ payload, name, holder, expiresAt, now })
  const at = now.toISOString()
  const result = await sqlite(payload).execute({
    sql: `INSERT INTO leases (name, holder, epoch, expires_at, updated_at, created_at)
          VALUES (?, ?, 1, ?, ?, ?)
          ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,
            epoch = CASE WHEN leases.holder = excluded.holder AND leases.expires_at >= ?
              THEN leases.epoch ELSE leases.epoch + 1 END,
            expires_at = excluded.expires_at, updated_at = excluded.updated_at
          WHERE leases.holder = excluded.holder OR leases.expires_at < ?
          RETURNING holder, epoch`,
    args: [name, holder, expiresAt.toISOString(), at, at, at, at],
  })
  const row = result.rows[0]
  return row?.holder === holder ? Number(row.epoch) : null
}

/** Gives the lease up at once (a clean stop), so a standby need not wait for it to run out. */
export async function releaseLease({
  payload,
  name,
  holder,
}: {
  payload: Payload
  name: string
  holder: string
}): Promise<void> {
  const past = new Date(0)
  if (engineOf(payload) === 'mongodb') {
    await mongo(payload, slugs.leases).updateOne({ name, holder }, { $set: { expiresAt: past } })
    return
  }
  if (engineOf(payload) === 'postgres') {
    await postgres(payload).query(
      'UPDATE leases SET expires_at = $1 WHERE name = $2 AND holder = $3',
      [past.toISOString(), name, holder],
    )
    return
  }
  await sqlite(payload).execute({
    sql: 'UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?',
    args: [past.toISOString(), name, holder],
  })
}

/**
 * PostgreSQL: the same conditional upsert. Two claimants of a missing lease meet on its unique
 * name (the second waits for the first's row, then its WHERE is checked against that row), and
 * two claimants of a lapsed one on its row lock: one of them gets it.
 */
async function claimOnPostgres({
  payload,
  name,
  holder,
  expiresAt,
  now,
}: {
  payload: Payload
  name: string
  holder: string
  expiresAt: Date
  now: Date
}): Promise<number | null> {
  const result = await postgres(payload).query(
    `INSERT INTO leases (name, holder, epoch, expires_at, updated_at, created_at)
     VALUES ($1, $2, 1, $3, $4, $4)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,
       epoch = CASE WHEN leases.holder = excluded.holder AND leases.expires_at >= $4
         THEN leases.epoch ELSE leases.epoch + 1 END,
       expires_at = excluded.expires_at, updated_at = excluded.updated_at
     WHERE leases.holder = excluded.holder OR leases.expires_at < $4
     RETURNING holder, epoch`,
    [name, holder, expiresAt.toISOString(), now.toISOString()],
  )
  const row = result.rows[0]
  return row?.holder === holder ? Number(row.epoch) : null
}
