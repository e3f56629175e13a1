import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import { ADDRESS_INDEX_COUNTER } from '../../db/atomic'

/** What the dashboard shows beyond the spec's cards. */
export type AdminStats = {
  /** The highest BIP32 index (0/n) given to an order, or null before the first order. */
  highestAddressIndexUsed: number | null
  /** Physical orders paid and waiting to be shipped. */
  ordersAwaitingShipment: number
  /** Orders with a late, partial or over-payment to settle by hand. */
  ordersWithPaymentExceptions: number
}

/**
 * The highest index comes from the counter (the next index, minus one) and from the orders
 * themselves, whichever is higher: a claimed index whose order failed to save still leaves a
 * gap the owner's wallet must scan past.
 */
export async function getAdminStats({ payload }: { payload: Payload }): Promise<AdminStats> {
  const [counter, lastOrder, awaiting, exceptions] = await Promise.all([
    payload.find({
      collection: slugs.counters,
      where: { name: { equals: ADDRESS_INDEX_COUNTER } },
      limit: 1,
      depth: 0,
    }),
    payload.find({
      collection: slugs.orders,
      sort: '-addressIndex',
      limit: 1,
      depth: 0,
      joins: false,
    }),
    payload.count({
      collection: slugs.orders,
      where: {
        and: [
          { status: { equals: 'PROCESSING_DELIVERY' } },
          { productType: { equals: 'PHYSICAL' } },
        ],
      },
    }),
    payload.count({
      collection: slugs.orders,
      where: {
        or: [
          { 'flags.paidLate': { equals: true } },
          { 'flags.paidPartial': { equals: true } },
          { 'flags.paidOver': { equals: true } },
        ],
      },
    }),
  ])
  const nextIndex = counter.docs[0]?.value
  const fromCounter = typeof nextIndex === 'number' && nextIndex > 0 ? nextIndex - 1 : null
  const fromOrders = lastOrder.docs[0]?.addressIndex ?? null
  const candidates = [fromCounter, fromOrders].filter((v): v is number => typeof v === 'number')
  return {
    highestAddressIndexUsed: candidates.length > 0 ? Math.max(...candidates) : null,
    ordersAwaitingShipment: awaiting.totalDocs,
    ordersWithPaymentExceptions: exceptions.totalDocs,
  }
}
