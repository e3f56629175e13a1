import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { CMS_AUTH_RATE_LIMIT } from '../../src/server/cmsDoors'
import { canonicalPathOf } from '../../src/server/canonicalPath'
import { createStaff } from '../admin/client'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * Express matched the raw path while Next and Payload matched the decoded one, so an encoded
 * letter, a doubled `/` or a trailing `/` walked past the guards written for the plain path.
 * Every spelling now meets the same guard, and none makes the shop answer 5xx.
 */

const EDITOR = { email: 'spelling-editor@example.com', password: 'Quartz-ledger-editor-8264' }

let shop: TestShop
let editorJwt: string
let editorId: number | string

beforeAll(async () => {
  shop = await startTestShop({ withCms: true })
  editorId = (await createStaff({ payload: shop.payload, ...EDITOR, role: 'editor' })).id
  editorJwt = (await shop.payload.login({ collection: slugs.staff, data: EDITOR })).token!
})

afterAll(async () => {
  await shop?.close()
})

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${shop.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, text: await response.text() }))

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${shop.url}${path}`, { headers }).then(async (response) => ({
    status: response.status,
    text: await response.text(),
  }))

describe('the canonical spelling of a path', () => {
  it.each([
    ['/cms/api/staff/%6cogin', '/cms/api/staff/login'],
    ['/cms/api/staff/login/', '/cms/api/staff/login'],
    ['/cms//api/staff/login', '/cms/api/staff/login'],
    ['/cms/api/%73taff/first-regist%65r', '/cms/api/staff/first-register'],
    ['/media/My%20cover.png', '/media/My%20cover.png'],
    ['/', '/'],
    ['/cms/', '/cms'],
  ])('of %s is %s', (raw, canonical) => {
    expect(canonicalPathOf(raw)).toBe(canonical)
  })

  it.each(['/cms/api/media/file/..%252f..%252fx', '/cms/api/%2e%2e/x', '/a/%zz', '/a/b%2fc'])(
    'of %s is none: it is refused',
    (raw) => {
      expect(canonicalPathOf(raw)).toBeNull()
    },
  )
})

describe('no spelling of a path answers 5xx or names the server', () => {
  it.each([
    ['/cms/api/%70apers/abc', [404]],
    ['/cms/api/payload-migration%73', [404]],
    ['/cms/api/payload-migrations/', [404]],
    ['/cms/api/media/file/..%252f..%252fx', [400, 404]],
    ['/cms/api/papers?where[or][0][title][equals][x]=1', [400]],
    ['/cms/api/%zz', [400]],
    ['/c%6ds/api/%zz', [400]],
  ])('GET %s', async (path, expected) => {
    const answer = await get(path, { authorization: `JWT ${editorJwt}` })
    expect(expected, `${answer.status} ${answer.text.slice(0, 200)}`).toContain(answer.status)
    expect(answer.text).not.toMatch(/localhost|127\.0\.0\.1/)
  })
})

describe('document locks', () => {
  it('an editor locks only what it may update: never an order, a product or a staff account', async () => {
    const [product] = (await shop.payload.find({ collection: slugs.products, limit: 1 })).docs
    const [paper] = (await shop.payload.find({ collection: slugs.papers, limit: 1 })).docs
    const auth = { authorization: `JWT ${editorJwt}` }
    const user = { relationTo: slugs.staff, value: editorId }
    const refused = [
      { document: { relationTo: slugs.orders, value: 'a8f8a5d0-0000-4000-8000-000000000000' } },
      { document: { relationTo: slugs.products, value: product!.id } },
      { document: { relationTo: slugs.staff, value: editorId } },
      { globalSlug: 'orders' },
      { globalSlug: 'no-such-global' },
    ]
    for (const body of refused) {
      const answer = await post('/cms/api/payload-locked-documents', { ...body, user }, auth)
      expect(answer.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400)
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500)
    }
    // Its own content it still locks while editing, as Payload's admin does.
    const own = await post(
      '/cms/api/payload-locked-documents',
      { document: { relationTo: slugs.papers, value: paper!.id }, user },
      auth,
    )
    expect(own.status, own.text).toBe(201)
    const locks = await shop.payload.find({
      collection: 'payload-locked-documents',
      depth: 0,
      limit: 100,
    })
    expect(locks.docs).toHaveLength(1)
  })
})

describe('guarded doors, whatever the spelling', () => {
  // Last in this file: it spends this client's allowance of failed sign-ins.
  it('failed sign-ins and reset requests share one limit through every spelling', async () => {
    const spellings = [
      '/cms/api/staff/%6cogin',
      '/cms/api/staff/login/',
      '/cms//api/staff/login',
      '/cms/api/%73taff/login',
      '/cms/api/staff/forgot-passwor%64',
    ]
    // A failure each (no password, no e-mail: refused before any hashing), in turn.
    for (let i = 0; i < CMS_AUTH_RATE_LIMIT.limit; i += 1) {
      const answer = await post(spellings[i % spellings.length]!, { email: '' })
      expect(answer.status, answer.text).toBeGreaterThanOrEqual(400)
      expect(answer.status, answer.text).toBeLessThan(429)
    }
    for (const path of [...spellings, '/cms/api/staff/login'])
      expect((await post(path, { email: 'x@example.com', password: 'wrong' })).status, path).toBe(
        429,
      )
  })
})
