import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

import { EnvError, TEST_XPUB, loadEnv } from '../src/config/env'
import { fromRoot } from '../src/config/paths'

const run = promisify(execFile)

describe('production start-up', () => {
  it('refuses to start without its required settings and names each one', async () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NODE_ENV: 'production', PORT: '3999' }
    const failure = await run(process.execPath, ['--import', 'tsx', fromRoot('cms/src/server/main.ts')], {
      cwd: fromRoot('cms'),
      env,
      timeout: 60_000,
    }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    )
    expect(failure).not.toBeNull()
    expect(failure!.code).toBe(1)
    for (const setting of ['PAYLOAD_SECRET', 'BSV_XPUB', 'CHAIN_SOURCE', 'PUBLIC_URL']) {
      expect(failure!.stderr).toContain(setting)
    }
  })

  it('accepts a complete production configuration', () => {
    const env = loadEnv({
      NODE_ENV: 'production',
      PAYLOAD_SECRET: 'x'.repeat(40),
      BSV_XPUB: 'xpub-of-the-owner',
      CHAIN_SOURCE: 'whatsonchain',
      PUBLIC_URL: 'https://shop.example',
    })
    expect(env.isProduction).toBe(true)
    expect(env.rateSource).toBe('live')
    expect(env.chainSource).toBe('whatsonchain')
  })

  it('rejects the published test key, a short secret and a fixed rate in production', () => {
    const attempt = () =>
      loadEnv({
        NODE_ENV: 'production',
        PAYLOAD_SECRET: 'short',
        BSV_XPUB: TEST_XPUB,
        CHAIN_SOURCE: 'whatsonchain',
        RATE_SOURCE: 'fixed',
        PUBLIC_URL: 'https://shop.example',
      })
    expect(attempt).toThrow(EnvError)
    try {
      attempt()
    } catch (error) {
      expect((error as EnvError).problems).toHaveLength(3)
    }
  })

  it('runs in test mode with nothing configured', () => {
    const env = loadEnv({})
    expect(env.isProduction).toBe(false)
    expect(env.databaseEngine).toBe('sqlite')
    expect(env.databaseUri).toMatch(/^file:\/.*data\/shop\.db$/)
    expect(env.chainSource).toBe('simulator')
    expect(env.rateSource).toBe('fixed')
  })

  it('selects MongoDB for a mongodb URI', () => {
    expect(loadEnv({ DATABASE_URI: 'mongodb://localhost:27017/shop' }).databaseEngine).toBe('mongodb')
    expect(loadEnv({ DATABASE_URI: 'mongodb+srv://cluster.example/shop' }).databaseEngine).toBe('mongodb')
    expect(() => loadEnv({ DATABASE_URI: 'postgres://nope' })).toThrow(EnvError)
  })
})
