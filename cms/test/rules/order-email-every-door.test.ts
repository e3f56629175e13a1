import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import type { AdminClient } from '../admin/client'
import { cmsApi, shopWithOwnerAtEveryDoor } from '../support/cmsApi'
import { createPrintedBook, getOrder, SHIPPING } from '../support/shopApi'
import { runSql } from '../support/sql'
import type { TestShop } from '../support/testShop'

/**
 * A buyer's e-mail meets one rule through every door: checkout, Payload's REST under /cms/api
 * and the Local API. Checkout once stored addresses that the Orders collection refused on the
 * next save, and the payment worker failed on every pass that reached such an order.
 */

const OWNER = { email: 'email-owner@example.com', password: 'Quartz-ledger-owner-7193' }
const RULE = 'Please enter a valid email address.'

/** Addresses refused everywhere: separators, doubled dots, non-ASCII, and past RFC 5321's lengths. */
const ODD_EMAILS = [
  'bad;mail@b.co',
  'a..b@c.de',
  'a,b@c.de',
  'x;=2*21;@b.co',
  'ü@example.de',
  '"quoted"@example.com',
  'buyer@-example.com',
  'buyer@example.c',
  `${'a'.repeat(65)}@example.com`,
  `buyer@${'b'.repeat(64)}.com`,
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`,
]

let shop: TestShop
let payload: Payload
let cmsCookie: string
let admin: AdminClient
let printedId: number

/** A call to /cms/api as the owner, from Payload's admin page. */
const cms = (method: string, path: string, body?: unknown) =>
  cmsApi(shop, { cookie: cmsCookie }, method, path, body)

async function checkout(userEmail: string) {
  const response = await fetch(`${shop.url}/api/orders/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productId: printedId, userEmail, ...SHIPPING }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

async function orderWith(userEmail: string): Promise<string> {
  const created = await checkout('email-buyer@example.com')
  expect(created.status).toBe(201)
  const id = String(created.body.orderId)
  // As checkout stored it before the rule: a raw row, never seen by Payload's validation.
  await runSql(payload, 'UPDATE orders SET user_email = ? WHERE id = ?', [userEmail, id])
  return id
}

const order = (id: string) => getOrder(payload, id)

const orderCount = async () => (await payload.count({ collection: slugs.orders })).totalDocs

beforeAll(async () => {
  ;({ shop, admin, cmsCookie } = await shopWithOwnerAtEveryDoor(OWNER))
  payload = shop.payload
  printedId = await createPrintedBook(payload, { name: 'E-mails, printed', stock: 100 })
})

afterAll(async () => {
  await shop?.close()
})

describe("a buyer's e-mail, through every door", () => {
  it('checkout refuses an odd e-mail with the spec message and stores nothing', async () => {
    const before = await orderCount()
    for (const email of ODD_EMAILS) {
      const { status, body } = await checkout(email)
      expect({ email, status, body }).toEqual({
        email,
        status: 400,
        body: { success: false, error: RULE },
      })
    }
    expect(await orderCount()).toBe(before)
    // Ordinary addresses still pass, in any case and with a tag.
    const fine = await checkout('  Ada.Lovelace+books@Example.co.uk ')
    expect(fine.status).toBe(201)
    expect((await order(String(fine.body.orderId))).userEmail).toBe(
      'ada.lovelace+books@example.co.uk',
    )
  })

  it('/cms/api refuses an admin writing an odd e-mail into an order', async () => {
    const id = (await checkout('cms-buyer@example.com')).body.orderId as string
    for (const email of ODD_EMAILS) {
      const { status, text } = await cms('PATCH', `/orders/${id}`, { userEmail: email })
      expect({ email, status }).toEqual({ email, status: 400 })
      expect(text).toContain('User Email')
    }
    expect((await order(id)).userEmail).toBe('cms-buyer@example.com')
    // A proper correction goes through.
    const fixed = await cms('PATCH', `/orders/${id}`, { userEmail: 'cms-fixed@example.com' })
    expect(fixed.status).toBe(200)
    expect((await order(id)).userEmail).toBe('cms-fixed@example.com')
  })

  it('the Local API refuses an odd e-mail on create and on update', async () => {
    const id = (await checkout('local-buyer@example.com')).body.orderId as string
    const stored = await order(id)
    for (const email of ODD_EMAILS) {
      await expect(
        payload.update({ collection: slugs.orders, id, data: { userEmail: email } }),
        email,
      ).rejects.toThrow(/userEmail|e-?mail/i)
      const { id: _id, createdAt: _c, updatedAt: _u, history: _h, payments: _p, ...rest } = stored
      await expect(
        payload.create({
          collection: slugs.orders,
          data: {
            ...rest,
            userEmail: email,
            addressIndex: 900_000 + ODD_EMAILS.indexOf(email),
            paymentAddress: `odd-${ODD_EMAILS.indexOf(email)}`,
          } as never,
        }),
        email,
      ).rejects.toThrow(/userEmail|e-?mail/i)
    }
    expect((await order(id)).userEmail).toBe('local-buyer@example.com')
  })
})

describe('an order stored with an odd e-mail before the rule', () => {
  it('is still cancelled by the owner, and saved through /cms/api and the Local API when its e-mail stays', async () => {
    const cancelled = await orderWith('bad;mail@b.co')
    const response = await admin.request('POST', `/orders/${cancelled}/cancel`, {
      json: { note: 'The buyer asked us to cancel.' },
    })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { status: string }).status).toBe('CANCELLED')

    const kept = await orderWith('a..b@c.de')
    const viaCms = await cms('PATCH', `/orders/${kept}`, { tokenAddress: 'alias@example.com' })
    expect(viaCms.status).toBe(200)
    await payload.update({
      collection: slugs.orders,
      id: kept,
      data: { shippingTrackingNumber: 'TRACK-1' },
    })
    const after = await order(kept)
    expect(after.userEmail).toBe('a..b@c.de')
    expect(after.tokenAddress).toBe('alias@example.com')
    expect(after.shippingTrackingNumber).toBe('TRACK-1')
    // Another odd value is still refused on such an order.
    const other = await cms('PATCH', `/orders/${kept}`, { userEmail: 'a,b@c.de' })
    expect(other.status).toBe(400)
  })
})
