import type { AdminHealth } from '@shop/domain'
import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import type { Env } from '../../config/env'
import { CHAIN_LOOKS_COUNTER } from '../../db/counters'
import { WORKER_LEASE } from '../../db/leases'

/** An URL's origin only: a path may carry a key (WhatsOnChain's, a webhook's token). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return 'not a valid URL'
  }
}

/**
 * Whether the payment worker runs (it holds its lease), when it last looked at the chain, and how
 * the e-mail outbox fares: what the owner checks first when buyers say nothing happens.
 */
export async function getAdminHealth({
  payload,
  env,
  now = new Date(),
}: {
  payload: Payload
  env: Pick<Env, 'chainSource' | 'wocApiUrl' | 'emailDelivery'>
  now?: Date
}): Promise<AdminHealth> {
  const [lease, lastLook, pending, failed, lastSent, lastFailed] = await Promise.all([
    payload.find({
      collection: slugs.leases,
      where: { name: { equals: WORKER_LEASE } },
      limit: 1,
      depth: 0,
    }),
    payload.find({
      collection: slugs.counters,
      where: { name: { equals: CHAIN_LOOKS_COUNTER } },
      limit: 1,
      depth: 0,
    }),
    payload.count({ collection: slugs.emailOutbox, where: { status: { equals: 'pending' } } }),
    payload.count({ collection: slugs.emailOutbox, where: { status: { equals: 'failed' } } }),
    payload.find({
      collection: slugs.emailOutbox,
      where: { status: { equals: 'sent' } },
      sort: '-sentAt',
      limit: 1,
      depth: 0,
      select: { sentAt: true },
    }),
    payload.find({
      collection: slugs.emailOutbox,
      where: { status: { equals: 'failed' } },
      sort: '-updatedAt',
      limit: 1,
      depth: 0,
      select: { lastError: true },
    }),
  ])
  const leaseUntil = lease.docs[0]?.expiresAt ?? null
  return {
    worker: {
      running: leaseUntil !== null && new Date(leaseUntil).getTime() > now.getTime(),
      leaseUntil,
    },
    chain: {
      source: env.chainSource,
      origin: originOf(env.wocApiUrl),
      lastCheckAt: lastLook.docs[0]?.updatedAt ?? null,
    },
    email: {
      delivery: env.emailDelivery,
      pending: pending.totalDocs,
      failed: failed.totalDocs,
      lastSentAt: lastSent.docs[0]?.sentAt ?? null,
      lastError: lastFailed.docs[0]?.lastError ?? null,
    },
  }
}
