import type { AdminAddressPage, AdminStats } from '@shop/domain'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { TEST_XPUB } from '../../src/config/env'
import { slugs } from '../../src/collections/slugs'
import { claimAddressIndex } from '../../src/db/counters'
import { deriveOrderAddress } from '@shop/chain'
import { SHIPPING, productIdOf } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import type { AdminClient } from './client'
import { signedInNewAdmin } from './client'

/**
 * Unpaid orders leave runs of unused addresses, and a wallet with the usual
 * gap limit of 20 stops scanning at the first such run. The dashboard counts them and the owner
 * has a watch-only view of every address given out, exportable.
 */

const OWNER = { email: 'wallet-owner@example.com', password: 'Quartz-ledger-owner-7193' }

let shop: TestShop
let admin: AdminClient
const orderIds: string[] = []

beforeAll(async () => {
  shop = await startTestShop({ env: { WALLET_GAP_LIMIT: '4', ORDER_CREATE_RATE_LIMIT: '1000' } })
  admin = await signedInNewAdmin(shop, OWNER)
  const productId = await productIdOf(shop.payload, 'PHYSICAL')
  // Indices 0..5 to orders, 6 claimed by a checkout that never stored its order, 7 to an order.
  const checkout = async () => {
    const response = await fetch(`${shop.url}/api/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ productId, userEmail: 'gap@example.com', ...SHIPPING }),
    })
    orderIds.push(((await response.json()) as { orderId: string }).orderId)
  }
  for (let i = 0; i < 6; i += 1) await checkout()
  expect(await claimAddressIndex({ payload: shop.payload })).toBe(6)
  await checkout()
  // Money arrived on index 1 only.
  await shop.payload.db.updateOne({
    collection: slugs.orders,
    where: { id: { equals: orderIds[1] } },
    data: { amountSatoshiReceived: 5_000 },
  })
})

afterAll(async () => {
  await shop?.close()
})

describe('the wallet gap on the dashboard', () => {
  it('counts the unused addresses since the last payment and the longest run before one', async () => {
    const response = await admin.request('GET', '/stats')
    expect(response.status).toBe(200)
    const stats = (await response.json()) as AdminStats
    expect(stats.highestAddressIndexUsed).toBe(7)
    expect(stats.addressGaps).toEqual({ current: 6, longestBeforeFunds: 1, walletGapLimit: 4 })
  })
})

describe('GET /api/admin/addresses', () => {
  it('lists every address given out, newest first, with its order and what it received', async () => {
    const response = await admin.request('GET', '/addresses')
    expect(response.status).toBe(200)
    const page = (await response.json()) as AdminAddressPage
    expect(page).toMatchObject({ totalPages: 1, currentPage: 1 })
    expect(page.addresses.map((a) => a.index)).toEqual([7, 6, 5, 4, 3, 2, 1, 0])
    for (const row of page.addresses)
      expect(row.address).toBe(
        deriveOrderAddress({ xpub: TEST_XPUB, index: row.index, network: 'main' }),
      )
    const orphan = page.addresses.find((a) => a.index === 6)!
    expect(orphan).toMatchObject({ orderId: null, status: null, receivedSatoshis: 0 })
    expect(page.addresses.find((a) => a.index === 1)).toMatchObject({
      orderId: orderIds[1],
      status: 'AWAITING_PAYMENT',
      receivedSatoshis: 5_000,
    })
    expect((await admin.request('GET', '/addresses?page=0')).status).toBe(400)
    const beyond = (await (
      await admin.request('GET', '/addresses?page=9')
    ).json()) as AdminAddressPage
    expect(beyond.addresses).toEqual([])
  })

  it('exports them as CSV', async () => {
    const response = await admin.request('GET', '/addresses/export.csv')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="?addresses-\d{4}-\d{2}-\d{2}\.csv"?$/,
    )
    const lines = (await response.text()).trim().split('\n')
    expect(lines[0]).toBe(
      '"index","path","address","order id","status","received satoshis","received BSV"',
    )
    expect(lines).toHaveLength(9)
    expect(lines[2]).toBe(
      [
        1,
        'm/0/1',
        deriveOrderAddress({ xpub: TEST_XPUB, index: 1, network: 'main' }),
        orderIds[1],
        'AWAITING_PAYMENT',
        5000,
        '0.00005000',
      ]
        .map((cell) => `"${cell}"`)
        .join(','),
    )
  })

  it('refuses anyone but a signed-in admin', async () => {
    const anonymous = await fetch(`${shop.url}/api/admin/addresses`)
    expect(anonymous.status).toBe(401)
    const csv = await fetch(`${shop.url}/api/admin/addresses/export.csv`)
    expect(csv.status).toBe(401)
  })
})
