import { describe, expect, it } from 'vitest'

import { loadEnv } from './env'

/** The owner's alerts and webhook are settings that cannot be half set. */
describe('OWNER_EMAIL and WEBHOOK_URL', () => {
  const base = { NODE_ENV: 'test' } as NodeJS.ProcessEnv

  it('are off when blank, as .env.example has them', () => {
    const env = loadEnv({ ...base, OWNER_EMAIL: '', WEBHOOK_URL: ' ', WEBHOOK_SECRET: '' })
    expect(env.ownerEmail).toBeUndefined()
    expect(env.webhook).toBeUndefined()
  })

  it('refuse an owner address that is not one', () => {
    expect(() => loadEnv({ ...base, OWNER_EMAIL: 'owner-at-example' })).toThrow(
      /OWNER_EMAIL must be an e-mail address/,
    )
  })

  it('refuse a webhook without a signing secret, or not over http(s)', () => {
    expect(() => loadEnv({ ...base, WEBHOOK_URL: 'https://example.com/hook' })).toThrow(
      /WEBHOOK_SECRET .* is required with WEBHOOK_URL/,
    )
    expect(() =>
      loadEnv({ ...base, WEBHOOK_URL: 'ftp://example.com/hook', WEBHOOK_SECRET: 'x'.repeat(32) }),
    ).toThrow(/WEBHOOK_URL must be an http\(s\) URL/)
    const env = loadEnv({
      ...base,
      OWNER_EMAIL: 'owner@example.com',
      WEBHOOK_URL: 'https://example.com/hook',
      WEBHOOK_SECRET: 'x'.repeat(32),
    })
    expect(env.ownerEmail).toBe('owner@example.com')
    expect(env.webhook).toEqual({ url: 'https://example.com/hook', secret: 'x'.repeat(32) })
  })
})
