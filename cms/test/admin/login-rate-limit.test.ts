import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import { adminClient, createStaff } from './client'

let shop: TestShop

beforeAll(async () => {
  // Its own shop: the limiter counts per client address for the life of the process.
  shop = await startTestShop({ seed: false })
  await createStaff({
    payload: shop.payload,
    email: 'owner@example.com',
    password: 'owner-password-1',
    role: 'admin',
  })
})

afterAll(async () => {
  await shop?.close()
})

describe('the sign-in rate limit', () => {
  it('lets successful sign-ins through and stops a client after 20 failures in 15 minutes', async () => {
    const client = adminClient(shop.url)
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await client.request('POST', '/login', {
            json: { email: 'owner@example.com', password: 'owner-password-1' },
          })
        ).status,
      ).toBe(200)
    }
    // Different unknown accounts: Payload's per-account lockout never triggers, the limiter does.
    for (let attempt = 1; attempt <= 20; attempt++) {
      const response = await client.request('POST', '/login', {
        json: { email: `guess${attempt}@example.com`, password: 'x' },
      })
      expect(response.status, `attempt ${attempt}`).toBe(401)
    }
    const blocked = await client.request('POST', '/login', {
      json: { email: 'owner@example.com', password: 'owner-password-1' },
    })
    expect(blocked.status).toBe(429)
    expect(await blocked.json()).toEqual({
      success: false,
      admin: null,
      message: 'Too many sign-in attempts. Try again later.',
    })
    expect(blocked.headers.get('ratelimit-policy')).toMatch(/20/)
  })
})
