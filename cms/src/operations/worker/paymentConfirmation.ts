import type { Payload, PayloadRequest } from 'payload'

import { slugs } from '../../collections/slugs'

/**
 * A recorded payment seen again by a look, in a block or back in the mempool: its block height,
 * when it was first confirmed, and no longer missing. Written through the database adapter, not
 * Payload's update: the Payments collection has no hooks, every value is the worker's own
 * (a height, a time, a count), and after a block a rush writes one per order, where Payload's
 * update (the document read before and after, each field validated against the merged document)
 * was a large share of the worker's time. With `req`, inside its transaction.
 */
export async function recordPaymentConfirmation({
  payload,
  req,
  id,
  blockHeight,
  confirmedAt,
  also = {},
}: {
  payload: Payload
  req?: PayloadRequest
  id: number | string
  blockHeight: number | null
  confirmedAt: string | null
  /** More of the worker's own values written with it (the proof checked, the doubt lifted). */
  also?: Record<string, string | number | null>
}): Promise<void> {
  await payload.db.updateOne({
    collection: slugs.payments,
    id,
    data: { ...also, blockHeight, confirmedAt, missingSince: null, missingLooks: 0 },
    req,
    returning: false,
  })
}
