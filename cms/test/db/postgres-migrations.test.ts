import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { TestPostgres } from '../support/postgres'
import { startPostgres } from '../support/postgres'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import { startWebProcess } from '../support/webProcess'

/**
 * Production on PostgreSQL: the web process applies cms/src/migrations-postgres at start and
 * pushes nothing, and the schema the migrations build is the one test mode pushes from the
 * collections (a collection changed without a new PostgreSQL migration fails here).
 */

// BIP32 test vector 2's master public key: a well-formed xpub that is not the shop's test key.
const OWNER_XPUB =
  'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB'

let migrated: TestPostgres
let pushed: TestShop

beforeAll(async () => {
  migrated = await startPostgres()
  pushed = await startTestShop({ engine: 'postgres', seed: false })
})

afterAll(async () => {
  await pushed?.close()
  await migrated?.stop()
})

async function query<T extends Record<string, unknown>>(uri: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: uri })
  await client.connect()
  try {
    return (await client.query(sql)).rows as T[]
  } finally {
    await client.end()
  }
}

/** Every column and index of the public schema, as text, in a stable order. */
const schemaOf = async (uri: string) => ({
  columns: (
    await query(
      uri,
      `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default
       FROM information_schema.columns WHERE table_schema = 'public'
       ORDER BY table_name, column_name`,
    )
  ).map((c) => Object.values(c).join(' ')),
  indexes: (
    await query<{ indexdef: string }>(
      uri,
      "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname",
    )
  ).map((i) => i.indexdef),
})

describe('PostgreSQL in production', () => {
  it('applies the migrations at start, pushes nothing, and builds the schema test mode pushes', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-prod-pg-'))
    const web = await startWebProcess({
      readyPath: '/api/products',
      env: (port) => ({
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        DATABASE_URI: migrated.uri,
        PAYLOAD_SECRET: 'p'.repeat(40),
        BSV_XPUB: OWNER_XPUB,
        CHAIN_SOURCE: 'whatsonchain',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        EMAIL_DELIVERY: 'off',
      }),
    })
    try {
      expect(await (await fetch(`${web.url}/api/products`)).json()).toEqual([])
      for (const page of ['/api/papers', '/api/timeline', '/api/content/faqs'])
        expect((await fetch(`${web.url}${page}`)).status, page).toBe(200)
    } finally {
      await web.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }

    const applied = await query<{ name: string; batch: number }>(
      migrated.uri,
      'SELECT name, batch::int AS batch FROM payload_migrations ORDER BY name',
    )
    const { migrations } = await import('../../src/migrations-postgres')
    expect(applied).toEqual(migrations.map(({ name }) => ({ name, batch: 1 })))

    const pushedUri = (
      pushed.payload.db as unknown as { poolOptions: { connectionString: string } }
    ).poolOptions.connectionString
    const [fromMigrations, fromPush] = [await schemaOf(migrated.uri), await schemaOf(pushedUri)]
    expect(fromMigrations.columns.length).toBeGreaterThan(100)
    expect(fromMigrations).toEqual(fromPush)
    // The rate limits' counts skip the write-ahead log: a count lost in a crash harms nobody.
    const persistence = await query<{ relname: string; relpersistence: string }>(
      migrated.uri,
      `SELECT relname, relpersistence FROM pg_class
        WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND relpersistence = 'u'`,
    )
    expect(persistence).toEqual([{ relname: 'rate_limits', relpersistence: 'u' }])
  })
})
