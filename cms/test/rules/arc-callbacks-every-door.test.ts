import fs from 'node:fs'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { fromRoot } from '../../src/config/paths'
import { arcCallbackToken } from '../../src/operations/arcCallbacks/token'
import { createStaff } from '../admin/client'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * The receiver of ARC's callbacks (POST /api/arc/callback) takes only what carries the shop's
 * callback token, in any spelling of its path, and keeps each documented callback for the
 * payment worker; what it keeps (the arc-callbacks collection) no door writes, and only admins
 * read, through /cms/api and the Local API alike.
 */

const ADMIN = { email: 'arc-callbacks-admin@example.com', password: 'Quartz-ledger-admin-5521' }
const EDITOR = { email: 'arc-callbacks-editor@example.com', password: 'Quartz-ledger-editor-5521' }
const FIXTURES = fromRoot('chain/src/simulator/fixtures/arc-docs')
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8')

let shop: TestShop
let token: string
let adminJwt: string
let editorJwt: string

beforeAll(async () => {
  shop = await startTestShop({ withCms: true, seed: false })
  token = arcCallbackToken(shop.payload)
  await createStaff({ payload: shop.payload, ...ADMIN, role: 'admin' })
  await createStaff({ payload: shop.payload, ...EDITOR, role: 'editor' })
  adminJwt = (await shop.payload.login({ collection: slugs.staff, data: ADMIN })).token!
  editorJwt = (await shop.payload.login({ collection: slugs.staff, data: EDITOR })).token!
})

afterAll(async () => {
  await shop?.close()
})

async function call(
  route: string,
  {
    method = 'POST',
    body,
    headers = {},
  }: { method?: string; body?: string; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${shop.url}${route}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body,
  })
  const text = await response.text()
  let json: Record<string, unknown> = {}
  try {
    json = JSON.parse(text) as Record<string, unknown>
  } catch {
    // Not JSON: the test looks at the status.
  }
  return { status: response.status, json, text, headers: response.headers }
}

const withToken = (value = token) => ({ authorization: `Bearer ${value}` })

const keptCallbacks = async () =>
  (
    await shop.payload.find({
      collection: slugs.arcCallbacks,
      sort: 'createdAt',
      depth: 0,
      pagination: false,
    })
  ).docs

describe('POST /api/arc/callback', () => {
  it('refuses a callback without the token, or with another, whatever the spelling of its path', async () => {
    const body = fixture('callback-double-spend-attempted.json')
    for (const route of [
      '/api/arc/callback',
      '/api/arc/callback/',
      '/api//arc/callback',
      '/api/arc/%63allback',
      '/API/arc/callback',
    ])
      for (const headers of [
        {},
        withToken('not-the-token'),
        { authorization: `Basic ${token}` },
        { authorization: token },
      ]) {
        const answer = await call(route, { body, headers })
        expect(answer.status, `${route} ${JSON.stringify(headers)}`).toBe(401)
        expect(answer.json.error).toBe("ARC's callbacks need the shop's callback token.")
        expect(answer.headers.get('www-authenticate')).toBe('Bearer')
      }
    expect(await keptCallbacks()).toEqual([])
  })

  it('keeps each documented callback, single or batched, in any spelling of its path', async () => {
    const single = await call('/api/arc/callback', {
      body: fixture('callback-double-spend-attempted.json'),
      headers: withToken(),
    })
    expect(single).toMatchObject({ status: 200, json: { received: 1 } })
    // ARC's own content type, with its charset.
    const mined = await call('/api//arc/callback/', {
      body: fixture('callback-mined.json'),
      headers: { ...withToken(), 'content-type': 'application/json; charset=UTF-8' },
    })
    expect(mined).toMatchObject({ status: 200, json: { received: 1 } })
    const batch = await call('/api/arc/%63allback', {
      body: fixture('callbacks-batched.json'),
      headers: withToken(),
    })
    expect(batch).toMatchObject({ status: 200, json: { received: 2 } })
    expect(
      (await keptCallbacks()).map((c) => [c.txid.slice(0, 8), c.txStatus, c.takenAt ?? null]),
    ).toEqual([
      ['3d7770a2', 'DOUBLE_SPEND_ATTEMPTED', null],
      ['48ccf56b', 'MINED', null],
      ['3d7770a2', 'DOUBLE_SPEND_ATTEMPTED', null],
      ['48ccf56b', 'MINED', null],
    ])
    expect((await keptCallbacks())[0]!.arcTimestamp).toBe('2024-03-26T16:02:29.655390092Z')
  })

  it('answers 400 with the reason for a body that is no callback, keeping nothing', async () => {
    const before = (await keptCallbacks()).length
    const seen = JSON.parse(fixture('callback-seen-on-network.json')) as Record<string, unknown>
    const cases: [string | undefined, Record<string, string>, RegExp][] = [
      ['{"txid":', {}, /Request body is not valid JSON/],
      [JSON.stringify({ ...seen, txid: 'nope' }), {}, /Not an ARC callback: .*txid/],
      [JSON.stringify({ ...seen, txStatus: 'seen on network' }), {}, /txStatus/],
      [JSON.stringify({ count: 3, callbacks: [seen] }), {}, /count is not the number/],
      [JSON.stringify(seen), { 'content-type': 'text/plain' }, /Not an ARC callback/],
      [undefined, {}, /Not an ARC callback/],
    ]
    for (const [body, headers, error] of cases) {
      const answer = await call('/api/arc/callback', {
        body,
        headers: { ...withToken(), ...headers },
      })
      expect(answer.status, String(body)).toBe(400)
      expect(answer.json.error).toMatch(error)
    }
    const tooMany = await call('/api/arc/callback', {
      body: JSON.stringify({ count: 51, callbacks: Array(51).fill(seen) }),
      headers: withToken(),
    })
    expect(tooMany).toMatchObject({
      status: 400,
      json: { error: expect.stringMatching(/at most 50/) },
    })
    expect(await keptCallbacks()).toHaveLength(before)
  })

  it('is a POST route only', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'])
      expect((await call('/api/arc/callback', { method, headers: withToken() })).status).toBe(404)
  })
})

describe('the kept callbacks (arc-callbacks)', () => {
  const callback = { txid: 'cd'.repeat(32), txStatus: 'MINED', arcTimestamp: 'now' }

  it('no one writes them through /cms/api, nor an admin through the Local API with access', async () => {
    const before = await keptCallbacks()
    const [kept] = before
    for (const authorization of [undefined, `JWT ${editorJwt}`, `JWT ${adminJwt}`]) {
      const headers: Record<string, string> = authorization ? { authorization } : {}
      const create = await call('/cms/api/arc-callbacks', {
        body: JSON.stringify(callback),
        headers,
      })
      expect(create.status, `create as ${authorization ?? 'anyone'}`).toBe(403)
      const update = await call(`/cms/api/arc-callbacks/${kept!.id}`, {
        method: 'PATCH',
        body: JSON.stringify({ takenAt: new Date().toISOString() }),
        headers,
      })
      expect(update.status, `update as ${authorization ?? 'anyone'}`).toBe(403)
      const remove = await call(`/cms/api/arc-callbacks/${kept!.id}`, {
        method: 'DELETE',
        headers,
      })
      expect(remove.status, `delete as ${authorization ?? 'anyone'}`).toBe(403)
    }
    const admin = (
      await shop.payload.find({
        collection: slugs.staff,
        where: { email: { equals: ADMIN.email } },
      })
    ).docs[0]!
    await expect(
      shop.payload.create({
        collection: slugs.arcCallbacks,
        data: callback,
        overrideAccess: false,
        user: { ...admin, collection: slugs.staff },
      }),
    ).rejects.toThrow(/not allowed/i)
    expect(await keptCallbacks()).toEqual(before)
  })

  it('only admins read them', async () => {
    expect((await call('/cms/api/arc-callbacks', { method: 'GET' })).status).toBe(403)
    const editor = await call('/cms/api/arc-callbacks', {
      method: 'GET',
      headers: { authorization: `JWT ${editorJwt}` },
    })
    expect(editor.status).toBe(403)
    const admin = await call('/cms/api/arc-callbacks', {
      method: 'GET',
      headers: { authorization: `JWT ${adminJwt}` },
    })
    expect(admin.status).toBe(200)
    expect((admin.json.docs as unknown[]).length).toBe((await keptCallbacks()).length)
  })
})
