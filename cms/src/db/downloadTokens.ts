import type { Payload } from 'payload'

import { slugs } from '../collections/slugs'
import { engineOf, mongo, sqlite } from './engine'

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
  const client = sqlite(payload)
  const result = await client.execute({
    sql: `UPDATE download_tokens SET uses = uses + 1, updated_at = ?
          WHERE token_hash = ? AND uses < max_uses AND expires_at > ?
          RETURNING id, order_id, product_id`,
    args: [now.toISOString(), tokenHash, now.toISOString()],
  })
  const row = result.rows[0]
  if (row)
    return {
      ok: true,
      tokenId: Number(row.id),
      orderId: String(row.order_id),
      productId: Number(row.product_id),
    }
  const existing = await client.execute({
    sql: 'SELECT expires_at FROM download_tokens WHERE token_hash = ?',
    args: [tokenHash],
  })
  const found = existing.rows[0]
  if (!found) return { ok: false, reason: 'unknown' }
  return {
    ok: false,
    reason: String(found.expires_at) <= now.toISOString() ? 'expired' : 'used-up',
  }
}
