import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { CMS_AUTH_RATE_LIMIT } from '../../src/server/cmsDoors'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * Issue 14, finding 5: Payload's own sign-in at /cms/api/staff/login had no limit per client, so
 * one address could try passwords as fast as the server answered.
 */

let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop({ withCms: true, seed: false })
})

afterAll(async () => {
  await shop?.close()
})

const attempt = (path: string, body: unknown) =>
  fetch(`${shop.url}/cms/api/staff/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (response) => {
    await response.arrayBuffer()
    return response.status
  })

describe('sign-in through /cms/api', () => {
  it('stops a client after its allowance of failed attempts', async () => {
    const statuses: number[] = []
    for (let i = 0; i < CMS_AUTH_RATE_LIMIT.limit; i += 1)
      statuses.push(
        await attempt('login', { email: `guess${i}@example.com`, password: 'not-the-password' }),
      )
    expect(statuses.every((status) => status === 401)).toBe(true)
    expect(
      await attempt('login', { email: 'guess@example.com', password: 'not-the-password' }),
    ).toBe(429)
    expect(await attempt('reset-password', { token: 'x', password: 'y' })).toBe(429)
  })
})
