import { describe, expect, it } from 'vitest'

import { loadEnv } from './env'

/** ARC beside the chain source: the simulator's stand-in in test mode, off unless set elsewhere. */
describe('ARC_URL, ARC_API_KEY and ARC_MAX_REQUESTS_PER_SECOND', () => {
  const base = { NODE_ENV: 'test' } as NodeJS.ProcessEnv
  const production = {
    NODE_ENV: 'production',
    PAYLOAD_SECRET: 'x'.repeat(32),
    // BIP32 test vector 1's m/1: a valid key that is not the published test key.
    BSV_XPUB:
      'xpub68Gmy5EVb2BdHTYHpekwGdcbBWax19w9HwA2DaADYvuCSSgt4YAErxxSN1KWSnmyqkwRNbnTj3XiUBKmHeC8rTjLRPjSULcDKQQgfgJDppq',
    CHAIN_SOURCE: 'whatsonchain',
    SMTP_HOST: 'smtp.example.com',
    PUBLIC_URL: 'https://shop.example.com',
  } as NodeJS.ProcessEnv

  it("is the simulator's stand-in in test mode, at 50 requests a second, with no key", () => {
    const env = loadEnv({ ...base, SIMULATOR_PORT: '3111' })
    expect(env.arcUrl).toBe('http://127.0.0.1:3111/arc')
    expect(env.arcApiKey).toBeUndefined()
    expect(env.arcMaxRequestsPerSecond).toBe(50)
  })

  it('is off in production and on WhatsOnChain in test mode unless set', () => {
    expect(loadEnv(production).arcUrl).toBeUndefined()
    expect(loadEnv({ ...base, CHAIN_SOURCE: 'whatsonchain' }).arcUrl).toBeUndefined()
    const set = loadEnv({
      ...production,
      ARC_URL: 'https://arc.taal.com/',
      ARC_API_KEY: 'mainnet_s3cret',
    })
    expect(set).toMatchObject({
      arcUrl: 'https://arc.taal.com',
      arcApiKey: 'mainnet_s3cret',
      arcMaxRequestsPerSecond: 10,
    })
    expect(
      loadEnv({ ...production, ARC_URL: 'https://arc.taal.com', ARC_MAX_REQUESTS_PER_SECOND: '3' })
        .arcMaxRequestsPerSecond,
    ).toBe(3)
  })

  it('is off anywhere with off, and the stand-in again when left blank', () => {
    expect(loadEnv({ ...base, ARC_URL: 'off' }).arcUrl).toBeUndefined()
    expect(loadEnv({ ...production, ARC_URL: 'off' }).arcUrl).toBeUndefined()
    expect(loadEnv({ ...base, ARC_URL: '' }).arcUrl).toBe('http://127.0.0.1:3100/arc')
  })

  it('refuses an address that is not http(s), and a limit that is not above 0', () => {
    for (const bad of ['wss://arc.taal.com', 'arc.taal.com', 'on'])
      expect(() => loadEnv({ ...base, ARC_URL: bad })).toThrow(
        /ARC_URL must be an http:\/\/ or https:\/\/ address, or off/,
      )
    expect(() => loadEnv({ ...base, ARC_MAX_REQUESTS_PER_SECOND: '0' })).toThrow(
      /ARC_MAX_REQUESTS_PER_SECOND/,
    )
  })

  it("sends ARC's callbacks to the shop's receiver at PUBLIC_URL unless ARC_CALLBACK_URL says otherwise", () => {
    expect(loadEnv({ ...base, PORT: '3900' }).arcCallbackUrl).toBe(
      'http://localhost:3900/api/arc/callback',
    )
    expect(loadEnv({ ...production, ARC_URL: 'https://arc.taal.com' }).arcCallbackUrl).toBe(
      'https://shop.example.com/api/arc/callback',
    )
    expect(
      loadEnv({
        ...production,
        ARC_URL: 'https://arc.taal.com',
        ARC_CALLBACK_URL: 'https://callbacks.example.com/api/arc/callback',
      }).arcCallbackUrl,
    ).toBe('https://callbacks.example.com/api/arc/callback')
    // No ARC, no callbacks; off turns them off.
    expect(loadEnv(production).arcCallbackUrl).toBeUndefined()
    expect(loadEnv({ ...base, ARC_URL: 'off' }).arcCallbackUrl).toBeUndefined()
    expect(loadEnv({ ...base, ARC_CALLBACK_URL: 'off' }).arcCallbackUrl).toBeUndefined()
    expect(() => loadEnv({ ...base, ARC_CALLBACK_URL: 'shop.example.com/cb' })).toThrow(
      /ARC_CALLBACK_URL must be an http:\/\/ or https:\/\/ address, or off/,
    )
  })
})
