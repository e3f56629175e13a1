import {
  COUNTRY_RULE,
  eurToSatoshis,
  formatBSV,
  PHONE_RULE,
  publicProductSchema,
  SHIPPING_COST_RULE,
} from '@shop/domain'
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import type { Product } from '../../src/payload-types'
import type { AdminClient } from '../admin/client'
import { cmsApi, shopWithOwnerAtEveryDoor } from '../support/cmsApi'
import { productForm } from '../admin/fixtures'
import { api, createPrintedBook, getOrder, SHIPPING } from '../support/shopApi'
import type { TestShop } from '../support/testShop'

/**
 * The shipping country comes from the ISO list, the optional phone looks like
 * one, and a printed book's shipping cost is part of what the buyer pays, through every door.
 */

const OWNER = { email: 'shipping-owner@example.com', password: 'Quartz-ledger-owner-7193' }

let shop: TestShop
let payload: Payload
let cmsCookie: string
let admin: AdminClient
let printedId: number
let digitalId: number

/** A call to /cms/api as the owner, from Payload's admin page. */
const cms = (method: string, path: string, body?: unknown) =>
  cmsApi(shop, { cookie: cmsCookie }, method, path, body)

const checkout = (productId: number, extra: Record<string, unknown> = {}) =>
  api(shop, '/api/orders/create', {
    body: { productId, userEmail: 'ship-buyer@example.com', ...SHIPPING, ...extra },
  })

const product = async (id: number) =>
  (await payload.findByID({ collection: slugs.products, id, depth: 0 })) as Product

beforeAll(async () => {
  ;({ shop, admin, cmsCookie } = await shopWithOwnerAtEveryDoor(OWNER))
  payload = shop.payload
  printedId = await createPrintedBook(payload, {
    name: 'Shipping, printed',
    stock: 50,
    priceEUR: 29.9,
  })
  digitalId = (
    await payload.find({ collection: slugs.products, where: { type: { equals: 'DIGITAL' } } })
  ).docs[0]!.id as number
})

afterAll(async () => {
  await shop?.close()
})

describe('the shipping country at checkout', () => {
  it.each(['Atlantis', 'Untied Kingdom', 'EU', '??'])(
    'refuses %s with a clear 400 and reserves nothing',
    async (country) => {
      const before = (await product(printedId)).currentStock
      const { status, body } = await checkout(printedId, { shippingCountry: country })
      expect(status).toBe(400)
      expect(body).toEqual({ success: false, error: COUNTRY_RULE })
      expect((await product(printedId)).currentStock).toBe(before)
    },
  )

  it.each([
    ['United Kingdom', 'United Kingdom'],
    ['it', 'Italy'],
    ['FRANCE', 'France'],
    ['Cote d’Ivoire', "Côte d'Ivoire"],
  ])('stores %s as the English name %s', async (given, stored) => {
    const { status, body } = await checkout(printedId, { shippingCountry: given })
    expect(status).toBe(201)
    expect((await getOrder(payload, String(body.orderId))).shippingCountry).toBe(stored)
  })

  it('ignores the country of a PDF order', async () => {
    const { status, body } = await checkout(digitalId, { shippingCountry: 'Atlantis' })
    expect(status).toBe(201)
    expect((await getOrder(payload, String(body.orderId))).shippingCountry).toBeNull()
  })
})

describe('the phone at checkout', () => {
  it.each(['call me', '12345', '+39 051 123 4567 ext. 9', '1'.repeat(21)])(
    'refuses %s with a clear 400',
    async (phone) => {
      const { status, body } = await checkout(printedId, { shippingPhone: phone })
      expect(status).toBe(400)
      expect(body).toEqual({ success: false, error: PHONE_RULE })
    },
  )

  it('stores a phone number as typed (trimmed), and none when it is left empty', async () => {
    const withPhone = await checkout(printedId, { shippingPhone: ' +39 (051) 123-4567 ' })
    expect(withPhone.status).toBe(201)
    const order = await getOrder(payload, String(withPhone.body.orderId))
    expect(order.shippingPhone).toBe('+39 (051) 123-4567')

    const without = await checkout(printedId, { shippingPhone: '' })
    expect((await getOrder(payload, String(without.body.orderId))).shippingPhone).toBeNull()
  })
})

describe("an order's country and phone, through every door", () => {
  it('an admin in /cms corrects them only to a listed country and a phone number', async () => {
    const { body } = await checkout(printedId)
    const id = String(body.orderId)
    // (Under Vitest, Next's copy of Payload sends the summary only: the messages are checked
    // through the Local API below.)
    const badCountry = await cms('PATCH', `/orders/${id}`, { shippingCountry: 'Atlantis' })
    expect(badCountry.status).toBe(400)
    expect(badCountry.text).toContain('Shipping Country')
    const badPhone = await cms('PATCH', `/orders/${id}`, { shippingPhone: 'call me' })
    expect(badPhone.status).toBe(400)
    expect(badPhone.text).toContain('Shipping Phone')
    expect((await getOrder(payload, id)).shippingCountry).toBe('United Kingdom')

    const fixed = await cms('PATCH', `/orders/${id}`, {
      shippingCountry: 'fr',
      shippingPhone: '+33 1 23 45 67 89',
    })
    expect(fixed.status).toBe(200)
    const after = await getOrder(payload, id)
    expect(after.shippingCountry).toBe('France')
    expect(after.shippingPhone).toBe('+33 1 23 45 67 89')
  })

  it('the Local API meets the same rules', async () => {
    const { body } = await checkout(printedId)
    const id = String(body.orderId)
    await expect(
      payload.update({ collection: slugs.orders, id, data: { shippingCountry: 'Atlantis' } }),
    ).rejects.toMatchObject({
      data: { errors: [{ path: 'shippingCountry', message: COUNTRY_RULE }] },
    })
    await expect(
      payload.update({ collection: slugs.orders, id, data: { shippingPhone: '12' } }),
    ).rejects.toMatchObject({ data: { errors: [{ path: 'shippingPhone', message: PHONE_RULE }] } })
    // A code or another name is stored under the English name here too.
    await payload.update({ collection: slugs.orders, id, data: { shippingCountry: 'USA' } })
    expect((await getOrder(payload, id)).shippingCountry).toBe('United States')
  })

  it('an order stored before the rules keeps its free-text country and still moves on', async () => {
    const { body } = await checkout(printedId)
    const id = String(body.orderId)
    await payload.db.updateOne({
      collection: slugs.orders,
      where: { id: { equals: id } },
      data: { shippingCountry: 'Untied Kingdom', shippingPhone: 'ask at the door' },
    })
    const updated = await payload.update({
      collection: slugs.orders,
      id,
      data: { lastCheckedAt: new Date().toISOString() },
    })
    expect(updated.shippingCountry).toBe('Untied Kingdom')
    expect(updated.shippingPhone).toBe('ask at the door')
  })
})

describe("a printed book's shipping cost", () => {
  it('is included by default: the public product says 0.00 and a PDF says nothing', async () => {
    const printed = publicProductSchema.parse((await api(shop, `/api/products/${printedId}`)).body)
    expect(printed.shippingCostEUR).toBe('0.00')
    const pdf = publicProductSchema.parse((await api(shop, `/api/products/${digitalId}`)).body)
    expect(pdf.shippingCostEUR).toBeNull()

    const { body } = await checkout(printedId)
    const order = await getOrder(payload, String(body.orderId))
    expect(order.priceAtPurchaseUSD).toBe(29.9)
    expect(order.shippingCostEUR).toBe(0)
    expect(order.amountSatoshiExpected).toBe(eurToSatoshis('29.90', order.bsvUsdRateAtPurchase))
  })

  it('is added to the price paid when the product sets one, and the BSV amount follows', async () => {
    const charged = await payload.create({
      collection: slugs.products,
      data: {
        name: 'Shipping, charged',
        type: 'PHYSICAL',
        priceEUR: 29.9,
        shippingCostEUR: 5,
        totalStock: 5,
        currentStock: 5,
        isAvailable: true,
      },
    })
    const publicProduct = publicProductSchema.parse(
      (await api(shop, `/api/products/${charged.id}`)).body,
    )
    expect(publicProduct).toMatchObject({ priceEUR: '29.90', shippingCostEUR: '5.00' })

    const { status, body } = await checkout(charged.id as number)
    expect(status).toBe(201)
    const id = String(body.orderId)
    const order = await getOrder(payload, id)
    expect(order.priceAtPurchaseUSD).toBe(34.9)
    expect(order.shippingCostEUR).toBe(5)
    const due = eurToSatoshis('34.90', order.bsvUsdRateAtPurchase)
    expect(order.amountSatoshiExpected).toBe(due)
    expect((await api(shop, `/api/orders/${id}/info`)).body.amountBSV).toBe(formatBSV(due))
  })

  it('a PDF order carries no shipping cost', async () => {
    const { body } = await checkout(digitalId)
    const order = await getOrder(payload, String(body.orderId))
    expect(order.shippingCostEUR).toBeNull()
  })
})

describe("a product's shipping cost, through every door", () => {
  it('/api/admin/products takes an amount in EUR and refuses anything else per field', async () => {
    const fields = {
      name: 'Shipping, admin form',
      type: 'PHYSICAL',
      priceEUR: '20',
      totalStock: '3',
      currentStock: '3',
      isAvailable: 'true',
    }
    for (const bad of ['-1', '4.555', '2000', 'five']) {
      const response = await admin.request('POST', '/products', {
        form: productForm({ ...fields, shippingCostEUR: bad } as never),
      })
      expect(response.status, bad).toBe(400)
      const { errors } = (await response.json()) as { errors: { path: string; msg: string }[] }
      expect(errors.map((e) => e.path)).toEqual(['shippingCostEUR'])
    }
    const created = await admin.request('POST', '/products', {
      form: productForm({ ...fields, shippingCostEUR: '4.5' } as never),
    })
    expect(created.status).toBe(201)
    const saved = (await created.json()) as { id: number; shippingCostEUR: number }
    expect(saved.shippingCostEUR).toBe(4.5)

    // An edit that does not send it keeps it.
    const edited = await admin.request('PUT', `/products/${saved.id}`, {
      form: productForm({ ...fields, name: 'Shipping, renamed' }),
    })
    expect(edited.status).toBe(200)
    expect((await product(saved.id)).shippingCostEUR).toBe(4.5)
  })

  it('/cms/api and the Local API refuse a cost that is not an amount in EUR', async () => {
    const bad = await cms('PATCH', `/products/${printedId}`, { shippingCostEUR: 4.555 })
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('Shipping cost (EUR)')
    const negative = await cms('PATCH', `/products/${printedId}`, { shippingCostEUR: -2 })
    expect(negative.status).toBe(400)
    await expect(
      payload.update({ collection: slugs.products, id: printedId, data: { shippingCostEUR: 1e6 } }),
    ).rejects.toMatchObject({
      data: { errors: [{ path: 'shippingCostEUR', message: SHIPPING_COST_RULE }] },
    })
    expect((await product(printedId)).shippingCostEUR).toBe(0)

    const ok = await cms('PATCH', `/products/${printedId}`, { shippingCostEUR: 3.2 })
    expect(ok.status).toBe(200)
    expect((await product(printedId)).shippingCostEUR).toBe(3.2)
    await payload.update({
      collection: slugs.products,
      id: printedId,
      data: { shippingCostEUR: 0 },
    })
  })
})
