import type { ArcCallback } from '@shop/chain'
import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import { inOneTransaction } from '../worker/workUnit'

/**
 * The callbacks ARC posted, kept for the payment worker to take (collections/ArcCallbacks), all
 * in one transaction: ARC is answered 200 only once every one is stored, and sends them all
 * again otherwise.
 */
export async function keepArcCallbacks(
  payload: Payload,
  callbacks: readonly ArcCallback[],
): Promise<void> {
  if (callbacks.length === 0) return
  await inOneTransaction(payload, async (req) => {
    for (const callback of callbacks)
      await payload.create({
        collection: slugs.arcCallbacks,
        req,
        depth: 0,
        data: {
          txid: callback.txid,
          txStatus: callback.txStatus,
          arcTimestamp: callback.timestamp,
        },
      })
  })
}
