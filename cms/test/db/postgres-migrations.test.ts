import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { fromRoot } from '../../src/config/paths'
import { TS_NODE_ARGS } from '../support/nodeArgs'
import type { TestPostgres } from '../support/postgres'
import { startPostgres } from '../support/postgres'
import { waitFor } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

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

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
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
    const port = await freePort()
    const child = spawn(process.execPath, [...TS_NODE_ARGS, fromRoot('cms/src/server/main.ts')], {
      cwd: fromRoot('cms'),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URI: migrated.uri,
        PAYLOAD_SECRET: 'p'.repeat(40),
        BSV_XPUB: OWNER_XPUB,
        CHAIN_SOURCE: 'whatsonchain',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        EMAIL_DELIVERY: 'off',
        LOG_LEVEL: 'warn',
        NEXT_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    const exited = new Promise((resolve) => child.once('exit', resolve))
    try {
      await waitFor(
        async () => {
          if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${output}`)
          const answer = await fetch(`http://127.0.0.1:${port}/api/products`).catch(() => null)
          return answer?.status === 200
        },
        { timeoutMs: 90_000, intervalMs: 250 },
      )
      expect(await (await fetch(`http://127.0.0.1:${port}/api/products`)).json()).toEqual([])
      for (const page of ['/api/papers', '/api/timeline', '/api/content/faqs'])
        expect((await fetch(`http://127.0.0.1:${port}${page}`)).status, page).toBe(200)
    } finally {
      child.kill('SIGTERM')
      await exited
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
  })
})
