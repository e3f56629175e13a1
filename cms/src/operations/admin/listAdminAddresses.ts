import type { AdminAddress, AdminAddressPage } from '@shop/domain'
import { formatBSV } from '@shop/domain'
import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import { deriveOrderAddress } from '@shop/chain'
import { csvRow } from './csv'
import { highestAddressIndex } from '../dashboard/getAdminStats'

export const ADDRESSES_PER_PAGE = 50

type Wallet = { xpub: string; network: 'main' | 'test' }

/** The addresses 0/from..0/to (inclusive), each with its order and what it received. */
async function addressesBetween({
  payload,
  wallet,
  from,
  to,
}: {
  payload: Payload
  wallet: Wallet
  from: number
  to: number
}): Promise<AdminAddress[]> {
  const orders = await payload.find({
    collection: slugs.orders,
    where: {
      and: [
        { addressIndex: { greater_than_equal: from } },
        { addressIndex: { less_than_equal: to } },
      ],
    },
    select: { addressIndex: true, paymentAddress: true, status: true, amountSatoshiReceived: true },
    depth: 0,
    joins: false,
    pagination: false,
  })
  const byIndex = new Map(orders.docs.map((o) => [o.addressIndex, o]))
  const rows: AdminAddress[] = []
  for (let index = to; index >= from; index -= 1) {
    const order = byIndex.get(index)
    rows.push({
      index,
      address:
        order?.paymentAddress ??
        deriveOrderAddress({ xpub: wallet.xpub, index, network: wallet.network }),
      orderId: order ? String(order.id) : null,
      status: order?.status ?? null,
      receivedSatoshis: order?.amountSatoshiReceived ?? 0,
    })
  }
  return rows
}

/**
 * The watch-only view of the owner's wallet: every address the shop gave out, newest first, with
 * its order and what it received, so the owner can check it against the wallet.
 */
export async function listAdminAddresses({
  payload,
  wallet,
  page,
}: {
  payload: Payload
  wallet: Wallet
  page: number
}): Promise<AdminAddressPage> {
  const highest = await highestAddressIndex(payload)
  const count = highest === null ? 0 : highest + 1
  const totalPages = Math.max(1, Math.ceil(count / ADDRESSES_PER_PAGE))
  if (highest === null || page > totalPages) return { addresses: [], totalPages, currentPage: page }
  const to = highest - (page - 1) * ADDRESSES_PER_PAGE
  const from = Math.max(0, to - ADDRESSES_PER_PAGE + 1)
  return {
    addresses: await addressesBetween({ payload, wallet, from, to }),
    totalPages,
    currentPage: page,
  }
}

/** Every address given out as CSV (index ascending), for a spreadsheet or a wallet import. */
export async function exportAdminAddressesCsv({
  payload,
  wallet,
}: {
  payload: Payload
  wallet: Wallet
}): Promise<string> {
  const highest = await highestAddressIndex(payload)
  const lines = [
    csvRow(['index', 'path', 'address', 'order id', 'status', 'received satoshis', 'received BSV']),
  ]
  for (let from = 0; highest !== null && from <= highest; from += 1000) {
    const rows = await addressesBetween({
      payload,
      wallet,
      from,
      to: Math.min(highest, from + 999),
    })
    for (const row of rows.reverse())
      lines.push(
        csvRow([
          row.index,
          `m/0/${row.index}`,
          row.address,
          row.orderId,
          row.status,
          row.receivedSatoshis,
          formatBSV(row.receivedSatoshis),
        ]),
      )
  }
  return `${lines.join('\n')}\n`
}
