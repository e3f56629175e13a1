import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { createStaff } from '../admin/client'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * /cms/api requests the database would answer with a 500 (a date that is not one, an id of the
 * wrong shape, a relationship to text, a geographic operator on text) are refused with a reason
 * before they reach it; good queries still work.
 */

const OWNER = { email: 'queries@example.com', password: 'Quartz-ledger-owner-7193' }

let shop: TestShop
let token: string

beforeAll(async () => {
  shop = await startTestShop({ withCms: true })
  await createStaff({ payload: shop.payload, ...OWNER, role: 'admin' })
  token = (await shop.payload.login({ collection: slugs.staff, data: OWNER })).token!
})

afterAll(async () => {
  await shop?.close()
})

const get = async (path: string) => {
  const response = await fetch(`${shop.url}/cms/api${path}`, {
    headers: { authorization: `JWT ${token}` },
  })
  return { status: response.status, text: await response.text() }
}

const QUERIES = [
  'where[userEmail][equals]=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  'where[userEmail][like]=%3Cscript%3E',
  'where[status][in]=%3Cscript%3E',
  'where[amountSatoshiExpected][equals]=abc',
  'where[createdAt][greater_than]=notadate',
  'where[id][equals]=%3Cx%3E',
  'where[product][equals]=abc',
  'where[paymentAddress][near]=1,2',
  'where[userEmail][exists]=maybe',
  'where[addressIndex][in]=a,b',
  'where[or][0][createdAt][less_than]=soon',
  'where[and][0][or][0][product][in]=x,y',
  'sort=%3Cscript%3E',
  'depth=99',
  'limit=-1',
  'page=abc',
  'where=plain',
]

describe('queries to /cms/api', () => {
  it.each(['orders', 'products', 'payments', 'papers'])(
    'never answer 5xx on %s, whatever the query or id',
    async (slug) => {
      const answers = []
      for (const query of QUERIES) answers.push([query, (await get(`/${slug}?${query}`)).status])
      for (const id of ['%3Cscript%3E', 'abc', '-1', '99999999999999999999', "1'"])
        answers.push([id, (await get(`/${slug}/${id}`)).status])
      expect(answers.filter(([, status]) => Number(status) >= 500)).toEqual([])
    },
  )

  it('says why a query is refused, and keeps good ones working', async () => {
    const date = await get('/orders?where[createdAt][greater_than]=notadate')
    expect(date.status).toBe(400)
    expect(date.text).toContain('createdAt: greater_than needs a date')
    expect((await get('/products/abc')).status).toBe(404)
    expect((await get('/orders?where[paymentAddress][near]=1,2')).text).toContain(
      'the operator near is not supported',
    )
    const good = await get(
      '/products?where[or][0][name][like]=Identity&where[or][1][createdAt][greater_than]=2020-01-01&limit=5&depth=1',
    )
    expect(good.status).toBe(200)
    expect((JSON.parse(good.text) as { totalDocs: number }).totalDocs).toBeGreaterThan(0)
    expect((await get('/staff/me')).status).toBe(200)
    expect((await get('/payload-preferences/collection-products')).status).toBeLessThan(500)
  })
})
