import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import type { AdminClient } from './client'
import { adminClient, createStaff, signedInNewAdmin } from './client'
import { EDITOR, OWNER } from './fixtures'

/**
 * The owner finds any order. GET /api/admin/orders keeps the spec's shape and
 * takes page, status (one or more), q (order id, e-mail, txid or address, partial) and exception;
 * GET /api/admin/orders/export.csv answers every order the same filters select.
 */
let shop: TestShop
let admin: AdminClient
let editor: AdminClient
const ids: Record<string, string> = {}
const TXID = 'f00dbabe'.repeat(8)

type Page = { orders: { id: string }[]; totalPages: number; currentPage: number }

async function order(
  name: string,
  {
    status,
    flags,
    email,
    extra = {},
  }: {
    status: string
    flags?: Record<string, boolean>
    email?: string
    extra?: Record<string, unknown>
  },
) {
  const index = Object.keys(ids).length
  const created = await shop.payload.create({
    collection: slugs.orders,
    data: {
      product: productId,
      productName: 'Printed book',
      productType: 'PHYSICAL',
      userEmail: email ?? `${name}@example.com`,
      priceAtPurchaseUSD: 30,
      bsvUsdRateAtPurchase: 40,
      amountSatoshiExpected: 75_000_000,
      paymentAddress: `1Find${name}${String(index).padStart(6, '0')}`,
      addressIndex: 1000 + index,
      gatewayExpiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
      shippingName: 'Ada Buyer',
      shippingAddressLine1: '1 Main St, "B"',
      shippingCity: 'Rome',
      shippingPostalCode: '00100',
      shippingCountry: 'Italy',
      ...extra,
    } as never,
  })
  await shop.payload.db.updateOne({
    collection: slugs.orders,
    where: { id: { equals: created.id } },
    data: { status, ...(flags ? { flags } : {}) },
  })
  ids[name] = created.id
  return created.id
}

let productId: number

beforeAll(async () => {
  shop = await startTestShop({ seed: false })
  admin = await signedInNewAdmin(shop, OWNER)
  await createStaff({ payload: shop.payload, ...EDITOR, role: 'editor' })
  editor = adminClient(shop.url)
  await editor.request('POST', '/login', {
    json: EDITOR,
  })
  productId = (
    await shop.payload.create({
      collection: slugs.products,
      data: {
        name: 'Printed book',
        type: 'PHYSICAL',
        priceEUR: 30,
        totalStock: 9,
        currentStock: 9,
        isAvailable: true,
      },
    })
  ).id
  await order('waiting', { status: 'AWAITING_PAYMENT' })
  await order('paid', {
    status: 'PAID',
    email: 'Reader.Two@Mail.example',
    extra: { shippingCostEUR: 4.5 },
  })
  await order('shipped', { status: 'SHIPPED', extra: { shippingTrackingNumber: 'RR1' } })
  await order('late', { status: 'EXPIRED', flags: { paidLate: true } })
  await order('over', { status: 'PAID', flags: { paidOver: true }, email: '=cmd|calc@example.com' })
  await order('partial', { status: 'UNDERPAID', flags: { paidPartial: true } })
  await shop.payload.create({
    collection: slugs.payments,
    data: {
      outpoint: `${TXID}:0`,
      order: ids.paid!,
      txid: TXID,
      vout: 0,
      satoshis: 75_000_000,
      address: '1Findpaid',
      seenAt: new Date().toISOString(),
    },
  })
})

afterAll(async () => {
  await shop?.close()
})

const list = async (query: string) => {
  const response = await admin.request('GET', `/orders${query}`)
  expect(response.status, query).toBe(200)
  const page = (await response.json()) as Page
  expect(Object.keys(page).sort()).toEqual(['currentPage', 'orders', 'totalPages'])
  return page.orders.map((o) => Object.entries(ids).find(([, id]) => id === o.id)?.[0]).sort()
}

describe('finding orders', () => {
  it('filters by one or more statuses', async () => {
    expect(await list('?status=PAID')).toEqual(['over', 'paid'])
    expect(await list('?status=PAID&status=SHIPPED')).toEqual(['over', 'paid', 'shipped'])
    expect(await list('?status=PAID,SHIPPED')).toEqual(['over', 'paid', 'shipped'])
  })

  it('searches the order id, the e-mail, the payment address and any txid, in part', async () => {
    expect(await list(`?q=${ids.shipped!.slice(0, 13)}`)).toEqual(['shipped'])
    expect(await list('?q=reader.two@mail')).toEqual(['paid'])
    expect(await list('?q=1Findlate')).toEqual(['late'])
    expect(await list(`?q=${TXID.slice(10, 30)}`)).toEqual(['paid'])
    expect(await list('?q=nothing-like-this')).toEqual([])
  })

  it('filters by exception, needs-settling included, and combines filters', async () => {
    expect(await list('?exception=late')).toEqual(['late'])
    expect(await list('?exception=over')).toEqual(['over'])
    expect(await list('?exception=partial')).toEqual(['partial'])
    expect(await list('?exception=needs-settling')).toEqual(['late', 'over', 'partial'])
    expect(await list('?exception=needs-settling&status=PAID')).toEqual(['over'])
  })

  it('matches % and _ as themselves, never as wildcards', async () => {
    // The search is text, never a LIKE pattern: `q=%` finds only orders holding a %.
    expect(await list('?q=%25')).toEqual([])
    expect(await list('?q=_')).toEqual([])
    await order('per%cent', { status: 'EXPIRED', email: 'percent@example.com' })
    await order('under_score', { status: 'EXPIRED', email: 'under_score@example.com' })
    await order('back\\slash', { status: 'EXPIRED', email: 'backslash@example.com' })
    expect(await list('?q=%25')).toEqual(['per%cent'])
    expect(await list('?q=r%25c')).toEqual(['per%cent'])
    expect(await list('?q=_')).toEqual(['under_score'])
    expect(await list('?q=under_score@')).toEqual(['under_score'])
    expect(await list('?q=%5C')).toEqual(['back\\slash'])
    // As wildcards, `p_r` would match "per" and `1Find%cent` the first address.
    expect(await list('?q=p_r')).toEqual([])
    expect(await list('?q=1Find%25cent')).toEqual([])
    // Words still match in any order, each anywhere in the same field.
    expect(await list('?q=cent %25')).toEqual(['per%cent'])
  })

  it('refuses what it does not understand with a reason', async () => {
    for (const query of ['?status=LOST', '?exception=weird', `?q=${'x'.repeat(201)}`, '?page=0']) {
      const response = await admin.request('GET', `/orders${query}`)
      expect(response.status, query).toBe(400)
      expect(((await response.json()) as { error: string }).error).toBeTruthy()
    }
  })
})

describe('GET /api/admin/orders/export.csv', () => {
  it('answers every selected order as CSV, quoted, with no formula a spreadsheet would run', async () => {
    const response = await admin.request('GET', '/orders/export.csv?status=PAID')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="?orders-\d{4}-\d\d-\d\d\.csv/,
    )
    const lines = (await response.text()).trimEnd().split('\n')
    expect(lines[0]).toBe(
      '"id","created","status","product","EUR","BSV","satoshis","e-mail","txids","shipping","tracking","shipping EUR"',
    )
    expect(lines).toHaveLength(3)
    const paid = lines.find((l) => l.startsWith(`"${ids.paid!}"`))!
    expect(paid).toContain(
      ',"PAID","Printed book","30.00","0.75000000","0","Reader.Two@Mail.example",',
    )
    expect(paid).toContain(TXID)
    expect(paid).toContain('"Ada Buyer, 1 Main St, ""B"", 00100 Rome, Italy"')
    // The shipping part of the 30.00 paid, last.
    expect(paid.endsWith(',"4.50"')).toBe(true)
    const over = lines.find((l) => l.startsWith(`"${ids.over!}"`))!
    expect(over).toContain(`,"'=cmd|calc@example.com",`)
  })

  it('leaves no formula to run in a cell, whatever separator a spreadsheet splits on', async () => {
    // An e-mail the Orders collection refuses may still be in the database (an older checkout
    // wrote its rows without Payload's validation), so it is written there directly.
    const id = await order('semicolons', { status: 'CANCELLED' })
    await shop.payload.db.updateOne({
      collection: slugs.orders,
      where: { id: { equals: id } },
      data: { userEmail: 'x;=2*21;@b.co' },
    })
    const response = await admin.request('GET', '/orders/export.csv?status=CANCELLED')
    expect(response.status).toBe(200)
    const lines = (await response.text()).trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    for (const line of lines) {
      // Every cell quoted, inner quotes doubled: the line is nothing but quoted cells.
      const cells = [...line.matchAll(/"((?:[^"]|"")*)"(?:,|$)/g)]
      expect(cells.map((c) => c[0]).join('')).toBe(line)
      expect(cells).toHaveLength(12)
    }
    const row = lines[1]!
    expect(row).toContain(`"x;'=2*21;'@b.co"`)
    // A spreadsheet that splits on ; (the usual separator where the decimal mark is a comma),
    // on a comma or on a tab, quotes or not, meets no piece it would run.
    for (const separator of [';', ',', '\t'])
      for (const piece of row.split(separator))
        expect(piece.replace(/^[\s"]+/, ''), `${JSON.stringify(separator)}: ${piece}`).not.toMatch(
          /^[=+\-@]/,
        )
  })

  it('is for admins only, and checks its filters', async () => {
    expect((await adminClient(shop.url).request('GET', '/orders/export.csv')).status).toBe(401)
    // Editors have no session in the admin area: refused all the same.
    expect([401, 403]).toContain((await editor.request('GET', '/orders/export.csv')).status)
    expect((await admin.request('GET', '/orders/export.csv?status=NOPE')).status).toBe(400)
  })
})

describe('correcting a tracking number', () => {
  type Detail = {
    shippingTrackingNumber: string | null
    history: { action: string; by: string; note: string | null }[]
  }

  it('changes a shipped order’s tracking number and records who, when, old and new', async () => {
    const response = await admin.request('POST', `/orders/${ids.shipped}/tracking`, {
      json: { trackingNumber: ' RR2 ', note: 'typo in the first one' },
    })
    expect(response.status).toBe(200)
    const detail = (await response.json()) as Detail
    expect(detail.shippingTrackingNumber).toBe('RR2')
    expect(detail.history.at(-1)).toMatchObject({
      action: 'tracking',
      by: 'owner@example.com',
      note: 'RR1 → RR2: typo in the first one',
    })
  })

  it('records a change made through any other door too (the rule is the collection’s)', async () => {
    await shop.payload.update({
      collection: slugs.orders,
      id: ids.shipped!,
      data: { shippingTrackingNumber: 'RR3' },
    })
    const order = await shop.payload.findByID({ collection: slugs.orders, id: ids.shipped! })
    expect(order.history?.at(-1)).toMatchObject({ action: 'tracking', note: 'RR2 → RR3' })
  })

  it('refuses an order not shipped, an empty number and the same number, with reasons', async () => {
    const cases: [string, unknown, number, RegExp][] = [
      [ids.paid!, { trackingNumber: 'RR9' }, 409, /only a shipped order/],
      [ids.shipped!, { trackingNumber: '  ' }, 400, /cannot be empty/],
      [ids.shipped!, { trackingNumber: 'RR3' }, 400, /already the tracking number/],
      [ids.shipped!, { trackingNumber: 'x'.repeat(121) }, 400, /at most 120/],
    ]
    for (const [id, json, status, error] of cases) {
      const response = await admin.request('POST', `/orders/${id}/tracking`, { json })
      expect(response.status, JSON.stringify(json)).toBe(status)
      expect(((await response.json()) as { error: string }).error).toMatch(error)
    }
    expect(
      (
        await adminClient(shop.url).request('POST', `/orders/${ids.shipped}/tracking`, {
          json: { trackingNumber: 'RR7' },
        })
      ).status,
    ).toBe(401)
  })
})
