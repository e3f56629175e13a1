import type { AdminStats } from '@shop/domain'
import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import { ADDRESS_INDEX_COUNTER } from '../../db/counters'
import { addressGaps } from '../admin/addressGaps'
import { NEEDS_ATTENTION_WHERE } from '../admin/needsAttention'
import { NEEDS_SETTLING_WHERE } from '../admin/needsSettling'

export type { AdminStats } from '@shop/domain'

/** The highest index given out: the counter's (next index minus one) or an order's, if higher. */
export async function highestAddressIndex(payload: Payload): Promise<number | null> {
  const [counter, lastOrder] = await Promise.all([
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
      select: { addressIndex: true },
    }),
  ])
  const nextIndex = counter.docs[0]?.value
  const fromCounter = typeof nextIndex === 'number' && nextIndex > 0 ? nextIndex - 1 : null
  const fromOrders = lastOrder.docs[0]?.addressIndex ?? null
  const candidates = [fromCounter, fromOrders].filter((v): v is number => typeof v === 'number')
  return candidates.length > 0 ? Math.max(...candidates) : null
}

/**
 * The dashboard's figures. A claimed index whose order failed to save still leaves a gap the
 * owner's wallet must scan past, so gaps are counted over every index given out.
 */
export async function getAdminStats({
  payload,
  walletGapLimit,
}: {
  payload: Payload
  walletGapLimit: number
}): Promise<Omit<AdminStats, 'emailDelivery' | 'health' | 'settling'>> {
  const [highest, funded, awaiting, exceptions, attention] = await Promise.all([
    highestAddressIndex(payload),
    payload.find({
      collection: slugs.orders,
      where: { amountSatoshiReceived: { greater_than: 0 } },
      sort: 'addressIndex',
      select: { addressIndex: true },
      depth: 0,
      joins: false,
      pagination: false,
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
    payload.count({ collection: slugs.orders, where: NEEDS_SETTLING_WHERE }),
    payload.count({ collection: slugs.orders, where: NEEDS_ATTENTION_WHERE }),
  ])
  return {
    highestAddressIndexUsed: highest,
    ordersAwaitingShipment: awaiting.totalDocs,
    ordersWithPaymentExceptions: exceptions.totalDocs,
    ordersNeedingAttention: attention.totalDocs,
    addressGaps: addressGaps({
      fundedIndices: funded.docs.map((o) => o.addressIndex),
      highestIndex: highest,
      walletGapLimit,
    }),
  }
}
