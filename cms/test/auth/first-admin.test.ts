import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { signedIn } from '../admin/client'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * The first staff account is an admin, whichever door creates it: in test mode, the first user
 * registered through /cms would otherwise be an editor, locked out of /admin.
 * (Production shuts first-register and creates the first admin with `npm run create-admin`:
 * cms/test/production-settings.test.ts.)
 */

const FIRST = { email: 'first@example.com', password: 'Quartz-ledger-owner-7193' }

let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop({ withCms: true, seed: false })
})

afterAll(async () => {
  await shop?.close()
})

describe('the first staff account', () => {
  it('registered through /cms is an admin who can run the shop from /admin; later ones are editors', async () => {
    expect((await shop.payload.count({ collection: slugs.staff })).totalDocs).toBe(0)
    const registered = await fetch(`${shop.url}/cms/api/staff/first-register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...FIRST, 'confirm-password': FIRST.password }),
    })
    expect(registered.status).toBe(200)
    const [first] = (await shop.payload.find({ collection: slugs.staff })).docs
    expect(first).toMatchObject({ email: FIRST.email, role: 'admin' })
    await signedIn(shop.url, FIRST.email, FIRST.password)

    // A second first-register is refused (Payload's own rule), and a second account is an editor.
    const again = await fetch(`${shop.url}/cms/api/staff/first-register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'second@example.com', password: FIRST.password }),
    })
    expect(again.status).toBeGreaterThanOrEqual(400)
    expect(again.status).toBeLessThan(500)
    const second = await shop.payload.create({
      collection: slugs.staff,
      data: { email: 'editor@example.com', password: FIRST.password },
    })
    expect(second.role).toBe('editor')
  })
})
