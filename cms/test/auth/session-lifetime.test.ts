import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { SESSION_MAX_AGE_HOURS } from '../../src/collections/Staff/hooks/accountChanges'
import { adminClient, createStaff } from '../admin/client'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * A session ends SESSION_MAX_AGE_HOURS after its sign-in, however often it is refreshed and
 * through whichever door: the shop's clock is moved forward while the session keeps refreshing.
 */

const OWNER = { email: 'lifetime@example.com', password: 'Quartz-ledger-owner-7193' }
const HOUR = 3600 * 1000

let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop({ withCms: true, seed: false })
  await createStaff({ payload: shop.payload, ...OWNER, role: 'admin' })
})

afterEach(() => {
  vi.useRealTimers()
})

afterAll(async () => {
  await shop?.close()
})

const refresh = async (token: string) => {
  const response = await fetch(`${shop.url}/cms/api/staff/refresh-token`, {
    method: 'POST',
    headers: { authorization: `JWT ${token}` },
  })
  const body = (await response.json()) as { refreshedToken?: string; exp?: number }
  return { status: response.status, body }
}

const me = async (token: string) =>
  (
    (await (
      await fetch(`${shop.url}/cms/api/staff/me`, { headers: { authorization: `JWT ${token}` } })
    ).json()) as { user: unknown }
  ).user

describe('a refreshed session', () => {
  it(`ends ${SESSION_MAX_AGE_HOURS} hours after its sign-in, refreshed every few hours`, async () => {
    const signedInAt = Date.now()
    vi.useFakeTimers({ toFake: ['Date'], now: signedInAt })
    const login = await fetch(`${shop.url}/cms/api/staff/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(OWNER),
    })
    expect(login.status).toBe(200)
    let token = ((await login.json()) as { token: string }).token

    const latestEnd = signedInAt + SESSION_MAX_AGE_HOURS * HOUR
    const outcomes: { hour: number; status: number }[] = []
    for (let hour = 4; hour <= 40; hour += 4) {
      vi.setSystemTime(signedInAt + hour * HOUR)
      const answer = await refresh(token)
      outcomes.push({ hour, status: answer.status })
      if (answer.status !== 200) break
      // Each new token ends by the session's absolute end, never past it.
      expect(answer.body.exp! * 1000).toBeLessThanOrEqual(latestEnd)
      token = answer.body.refreshedToken!
    }
    // Refreshed while the session may live; refused at the latest once its end comes near.
    expect(outcomes.at(-1)!.status).toBe(401)
    expect(outcomes.at(-1)!.hour).toBeLessThanOrEqual(SESSION_MAX_AGE_HOURS + 4)
    expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThanOrEqual(3)

    // Past its end, the last token opens nothing: not /cms/api, not the admin API.
    vi.setSystemTime(latestEnd + 60_000)
    expect(await me(token)).toBeNull()
    const admin = adminClient(shop.url)
    admin.cookie = `payload-token=${token}`
    expect((await admin.request('GET', '/status')).status).toBe(401)
  })

  it('signed in through the Local API, it ends the same way', async () => {
    const signedInAt = Date.now()
    vi.useFakeTimers({ toFake: ['Date'], now: signedInAt })
    const { token } = await shop.payload.login({ collection: slugs.staff, data: OWNER })
    vi.setSystemTime(signedInAt + (SESSION_MAX_AGE_HOURS - 1) * HOUR)
    // The token itself has run out by then; a session refreshed until now still ends at 24 h.
    expect(await me(token!)).toBeNull()
    vi.setSystemTime(signedInAt + 7 * HOUR)
    const answer = await refresh(token!)
    expect(answer.status).toBe(200)
    expect(answer.body.exp! * 1000).toBeLessThanOrEqual(signedInAt + SESSION_MAX_AGE_HOURS * HOUR)
  })
})
