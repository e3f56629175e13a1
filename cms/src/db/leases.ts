import type { Payload } from 'payload'

import { slugs } from '../collections/slugs'
import { engineOf, mongo, sqlite } from './engine'

/** The payment worker's lease: one worker process watches the chain at a time. */
export const WORKER_LEASE = 'payment-worker'

/**
 * Takes or renews the lease `name` for `holder` until now + ttlMs: true when `holder` holds it
 * (it held it already, or the last holder's time ran out), false while another holder's lease
 * is still running. One conditional upsert: two claimants can never both get it.
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
}): Promise<boolean> {
  const now = new Date()
  const expiresAt = new Date(now.getTime() + ttlMs)
  if (engineOf(payload) === 'mongodb') {
    try {
      const doc = await mongo(payload, slugs.leases)
        .findOneAndUpdate(
          { name, $or: [{ holder }, { expiresAt: { $lt: now } }] },
          { $set: { holder, expiresAt, updatedAt: now }, $setOnInsert: { createdAt: now } },
          { new: true, upsert: true },
        )
        .lean()
      return doc?.holder === holder
    } catch (error) {
      // The upsert met the unique name: the lease exists and another holder's time runs.
      if ((error as { code?: number }).code === 11000) return false
      throw error
    }
  }
  const result = await sqlite(payload).execute({
    sql: `INSERT INTO leases (name, holder, expires_at, updated_at, created_at) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,
            expires_at = excluded.expires_at, updated_at = excluded.updated_at
          WHERE leases.holder = excluded.holder OR leases.expires_at < ?
          RETURNING holder`,
    args: [
      name,
      holder,
      expiresAt.toISOString(),
      now.toISOString(),
      now.toISOString(),
      now.toISOString(),
    ],
  })
  return result.rows[0]?.holder === holder
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
  await sqlite(payload).execute({
    sql: 'UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?',
    args: [past.toISOString(), name, holder],
  })
}
