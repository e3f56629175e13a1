import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { createStaff, signedIn } from '../admin/client'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * Every door that sets a staff password, /cms/api included (where an editor could otherwise set
 * `abc`), meets one policy: at least 12 characters and not easy to guess.
 */

const ADMIN = { email: 'policy-admin@example.com', password: 'Quartz-ledger-owner-7193' }
const EDITOR = { email: 'policy-editor@example.com', password: 'Quartz-ledger-editor-8264' }

let shop: TestShop
let editorJwt: string
let editorId: number | string

beforeAll(async () => {
  shop = await startTestShop({ withCms: true, seed: false })
  await createStaff({ payload: shop.payload, ...ADMIN, role: 'admin' })
  editorId = (await createStaff({ payload: shop.payload, ...EDITOR, role: 'editor' })).id
  editorJwt = (await shop.payload.login({ collection: slugs.staff, data: EDITOR })).token!
})

afterAll(async () => {
  await shop?.close()
})

const stillSignsIn = async (credentials: { email: string; password: string }) =>
  Boolean((await shop.payload.login({ collection: slugs.staff, data: credentials })).token)

describe('the staff password policy', () => {
  it.each([
    ['abc', 'weak-1@example.com'],
    ['abcabcabcabc', 'weak-2@example.com'],
    ['password1234', 'weak-3@example.com'],
    // Its own e-mail address.
    ['marguerite.vanderbilt@example.com', 'marguerite.vanderbilt@example.com'],
  ])('refuses %s through the Local API', async (password, email) => {
    await expect(
      shop.payload.create({ collection: slugs.staff, data: { email, password, role: 'editor' } }),
    ).rejects.toMatchObject({ data: { errors: [{ path: 'password' }] } })
  })

  it('refuses an editor setting its own password to abc through /cms/api', async () => {
    const response = await fetch(`${shop.url}/cms/api/staff/${editorId}`, {
      method: 'PATCH',
      headers: { authorization: `JWT ${editorJwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'abc', currentPassword: EDITOR.password }),
    })
    expect(response.status).toBe(400)
    // The policy refuses it: the REST answer names the field (the reason is tested above).
    expect(JSON.stringify(await response.json())).toMatch(/invalid: password"/)
    expect(await stillSignsIn(EDITOR)).toBe(true)
  })

  it('refuses a weak new password in the admin area, under newPassword', async () => {
    const admin = await signedIn(shop.url, ADMIN.email, ADMIN.password)
    const response = await admin.request('PUT', '/change-password', {
      json: { currentPassword: ADMIN.password, newPassword: 'password1234' },
    })
    expect(response.status).toBe(400)
    const body = (await response.json()) as { errors: { path: string; msg: string }[] }
    expect(body.errors[0]).toMatchObject({
      path: 'newPassword',
      msg: expect.stringContaining('too easy to guess'),
    })
    expect(await stillSignsIn(ADMIN)).toBe(true)
  })

  it('refuses a weak password when resetting with a token, and accepts a strong one', async () => {
    const token = await shop.payload.forgotPassword({
      collection: slugs.staff,
      data: { email: EDITOR.email },
      disableEmail: true,
    })
    const reset = (password: string) =>
      fetch(`${shop.url}/cms/api/staff/reset-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, password }),
      })
    expect((await reset('abcabcabcabc')).status).toBe(400)
    expect(await stillSignsIn(EDITOR)).toBe(true)
    expect((await reset('Marble-harbour-lantern-5521')).status).toBe(200)
    expect(
      await stillSignsIn({ email: EDITOR.email, password: 'Marble-harbour-lantern-5521' }),
    ).toBe(true)
  })
})

/**
 * Changing one's own password through /cms/api needs the current one, so a stolen session is not
 * enough to take the account over.
 */
describe("changing one's own password needs the current one", () => {
  const OWN = { email: 'own-password@example.com', password: 'Quartz-ledger-editor-3307' }
  const NEW_PASSWORD = 'Marble-harbour-compass-6618'
  let ownId: number | string
  let ownJwt: string

  beforeAll(async () => {
    ownId = (await createStaff({ payload: shop.payload, ...OWN, role: 'editor' })).id
    ownJwt = (await shop.payload.login({ collection: slugs.staff, data: OWN })).token!
  })

  const patchOwn = (body: unknown, jwt = ownJwt, id = ownId) =>
    fetch(`${shop.url}/cms/api/staff/${id}`, {
      method: 'PATCH',
      headers: { authorization: `JWT ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  it.each([
    ['without it', { password: NEW_PASSWORD }, /Enter your current password/],
    [
      'with a wrong one',
      { password: NEW_PASSWORD, currentPassword: 'Not-mine-at-all-4410' },
      /current password is incorrect/,
    ],
  ])('refuses the change %s, through /cms/api and the Local API', async (_case, body, message) => {
    const response = await patchOwn(body)
    expect(response.status).toBe(400)
    expect(JSON.stringify(await response.json())).toMatch(/invalid: currentPassword/)
    const self = await shop.payload.findByID({ collection: slugs.staff, id: ownId })
    await expect(
      shop.payload.update({
        collection: slugs.staff,
        id: ownId,
        data: body,
        user: { ...self, collection: slugs.staff },
        overrideAccess: false,
      }),
    ).rejects.toMatchObject({
      data: { errors: [{ path: 'currentPassword', message: expect.stringMatching(message) }] },
    })
    expect(await stillSignsIn(OWN)).toBe(true)
  })

  it('accepts it with the current password, and never keeps or returns that field', async () => {
    const response = await patchOwn({ password: NEW_PASSWORD, currentPassword: OWN.password })
    expect(response.status).toBe(200)
    expect(JSON.stringify(await response.json())).not.toMatch(/currentPassword|Quartz-ledger/)
    expect(await stillSignsIn({ email: OWN.email, password: NEW_PASSWORD })).toBe(true)
    await expect(stillSignsIn(OWN)).rejects.toThrow()
  })

  it("lets an admin set another staff member's password", async () => {
    const adminJwt = (await shop.payload.login({ collection: slugs.staff, data: ADMIN })).token!
    const response = await patchOwn({ password: 'Marble-harbour-beacon-9920' }, adminJwt, editorId)
    expect(response.status).toBe(200)
    expect(
      await stillSignsIn({ email: EDITOR.email, password: 'Marble-harbour-beacon-9920' }),
    ).toBe(true)
  })
})
