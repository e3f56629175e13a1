import type { Payload } from 'payload'

import { slugs } from '../collections/slugs'
import { dateOf, engineOf, mongo, postgres, sqlite } from './engine'

export type DownloadUse =
  | { ok: true; tokenId: string | number; orderId: string; productId: string | number }
  | { ok: false; reason: 'unknown' | 'expired' | 'used-up' }

/** Consumes one use of a download token; concurrent requests can never exceed maxUses. */
export async function consumeDownloadUse({
  payload,
  tokenHash,
}: {
  payload: Payload
  tokenHash: string
}): Promise<DownloadUse> {
  const now = new Date()
  if (engineOf(payload) === 'mongodb') {
    const model = mongo(payload, slugs.downloadTokens)
    const doc = await model
      .findOneAndUpdate(
        { tokenHash, expiresAt: { $gt: now }, $expr: { $lt: ['$uses', '$maxUses'] } },
        { $inc: { uses: 1 } },
        { new: true },
      )
      .lean()
    if (doc)
      return {
        ok: true,
        tokenId: String(doc._id),
        orderId: String(doc.order),
        productId: String(doc.product),
      }
    const existing = await model.findOne({ tokenHash }).lean()
    if (!existing) return { ok: false, reason: 'unknown' }
    return {
      ok: false,
      reason: new Date(String(existing.expiresAt)) <= now ? 'expired' : 'used-up',
    }
  }
  if (engineOf(payload) === 'postgres') return consumeOnPostgres(payload, tokenHash, now)
  const client = sqlite(payload)
  const result = await client.execute({
    sql: `UPDATE download_tokens SET uses = uses + 1, updated_at = ?
          WHERE token_hash = ? AND uses < max_uses AND expires_at > ?
          RETURNING id, order_id, product_id`,
    args: [now.toISOString(), tokenHash, now.toISOString()],
  })
  const row = result.rows[0]
  if (row) return usedOnce(row)
  const existing = await client.execute({
    sql: 'SELECT expires_at FROM download_tokens WHERE token_hash = ?',
    args: [tokenHash],
  })
  const found = existing.rows[0]
  return refused(found ? dateOf(found.expires_at) : undefined, now)
}

/** A use counted: the token's row as the conditional UPDATE returned it. */
const usedOnce = (row: Record<string, unknown>): DownloadUse => ({
  ok: true,
  tokenId: Number(row.id),
  orderId: String(row.order_id),
  productId: Number(row.product_id),
})

/** No use counted: why, from the token's expiry (none: no such token). */
const refused = (expiresAt: Date | undefined, now: Date): DownloadUse =>
  expiresAt === undefined
    ? { ok: false, reason: 'unknown' }
    : { ok: false, reason: expiresAt <= now ? 'expired' : 'used-up' }

/**
 * PostgreSQL: the same conditional UPDATE; a concurrent use waits for the row and checks
 * `uses < max_uses` again on the row the other one left, so no use beyond the limit is counted.
 */
async function consumeOnPostgres(
  payload: Payload,
  tokenHash: string,
  now: Date,
): Promise<DownloadUse> {
  const pool = postgres(payload)
  const result = await pool.query(
    `UPDATE download_tokens SET uses = uses + 1, updated_at = $1
     WHERE token_hash = $2 AND uses < max_uses AND expires_at > $1
     RETURNING id, order_id, product_id`,
    [now.toISOString(), tokenHash],
  )
  const row = result.rows[0]
  if (row) return usedOnce(row)
  const existing = await pool.query(
    'SELECT expires_at FROM download_tokens WHERE token_hash = $1',
    [tokenHash],
  )
  const found = existing.rows[0]
  return refused(found ? dateOf(found.expires_at) : undefined, now)
}
