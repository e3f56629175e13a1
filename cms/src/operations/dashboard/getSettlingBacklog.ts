import type { SettlingBacklog } from '@shop/domain'
import type { Payload, Where } from 'payload'

import { slugs } from '../../collections/slugs'
import type { EmailOutbox, Order } from '../../payload-types'

/**
 * The settling backlog of GET /api/admin/stats (`AdminStats.settling`): paid orders not
 * delivered yet, and delivered ones whose buyer "paid" e-mail waits in the outbox.
 */
const UNDELIVERED: Where = {
  and: [{ status: { equals: 'PAID' } }, { fulfilledAt: { exists: false } }],
}
const UNMAILED: Where = {
  and: [{ status: { equals: 'pending' } }, { kind: { equals: 'order-paid' } }],
}

/**
 * The settling backlog in five small reads, each narrowed by an indexed equality (orders by
 * `status`, outbox rows by `status`), none a scan of every order. The oldest order is sought
 * among those with `paidAt` (every change to PAID stamps it) and, apart, among any without it
 * (a row written around the status seam), aged from its creation: the engines sort nulls
 * differently (first on SQLite, last on PostgreSQL), so nulls are never sorted.
 */
export async function getSettlingBacklog({
  payload,
  now = new Date(),
}: {
  payload: Payload
  now?: Date
}): Promise<SettlingBacklog> {
  const oldestOrder = (where: Where, sort: string[]) =>
    payload.find({
      collection: slugs.orders,
      where: { and: [UNDELIVERED, where] },
      sort,
      limit: 1,
      pagination: false,
      depth: 0,
      joins: false,
      select: { paidAt: true, createdAt: true },
    })
  const [undelivered, unmailed, oldestPaid, oldestUnstamped, oldestMail] = await Promise.all([
    payload.count({ collection: slugs.orders, where: UNDELIVERED }),
    payload.count({ collection: slugs.emailOutbox, where: UNMAILED }),
    oldestOrder({ paidAt: { exists: true } }, ['paidAt']),
    // fulfilledAt first (null for all of them): the (status, fulfilledAt, createdAt) index
    // answers in order, where createdAt alone walks every order on PostgreSQL.
    oldestOrder({ paidAt: { exists: false } }, ['fulfilledAt', 'createdAt']),
    payload.find({
      collection: slugs.emailOutbox,
      where: UNMAILED,
      sort: 'createdAt',
      limit: 1,
      pagination: false,
      depth: 0,
      select: { createdAt: true },
    }),
  ])
  const paid = oldestPaid.docs[0] as Pick<Order, 'paidAt'> | undefined
  const unstamped = oldestUnstamped.docs[0] as Pick<Order, 'createdAt'> | undefined
  const mail = oldestMail.docs[0] as Pick<EmailOutbox, 'createdAt'> | undefined
  const oldest = [paid?.paidAt, unstamped?.createdAt, mail?.createdAt]
    .filter((at): at is string => typeof at === 'string')
    .map((at) => new Date(at))
    .sort((a, b) => a.getTime() - b.getTime())[0]
  return {
    undelivered: undelivered.totalDocs,
    unmailed: unmailed.totalDocs,
    oldestAt: oldest ? oldest.toISOString() : null,
    oldestAgeSeconds: oldest
      ? Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000))
      : null,
  }
}
