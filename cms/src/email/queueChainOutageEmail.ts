import type { Payload, PayloadRequest } from 'payload'

import { slugs } from '../collections/slugs'

/**
 * Puts the owner's chain source alert in the outbox, once per outage (`outageKey` tells outages
 * apart; the unique key makes queueing twice send once). It is rendered when it is sent, from
 * the chain health row.
 */
export async function queueChainOutageEmail({
  payload,
  req,
  to,
  outageKey,
}: {
  payload: Payload
  req: PayloadRequest
  to: string
  outageKey: string
}): Promise<void> {
  const key = `owner-chain-down:${outageKey}`
  const existing = await payload.count({
    req,
    collection: slugs.emailOutbox,
    where: { key: { equals: key } },
  })
  if (existing.totalDocs > 0) return
  await payload.create({
    req,
    collection: slugs.emailOutbox,
    depth: 0,
    select: { key: true },
    data: { key, kind: 'owner-chain-down', order: null, to, status: 'pending', attempts: 0 },
  })
}
