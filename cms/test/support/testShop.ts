import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Payload } from 'payload'

import { fromRoot } from '../../src/config/paths'
import { closeServer, createHttpServer } from '../../src/server/httpServer'
import type { TestPostgres } from './postgres'

export type TestShop = {
  url: string
  payload: Payload
  dataDir: string
  /** The shop's DATABASE_URI (a file: path or a postgres:// URI), for a second process. */
  databaseUri: string
  close: () => Promise<void>
}

export type TestShopOptions = {
  /** Fill the shop with the seed data (default true). */
  seed?: boolean
  /** Mount Payload's admin and REST under /cms (needs `npm run build`; default false). */
  withCms?: boolean
  /** Extra settings for this shop (see .env.example). */
  env?: Record<string, string>
  /**
   * The database: a fresh SQLite file, or a fresh database on a throwaway PostgreSQL cluster
   * (support/postgres.ts). Default: TEST_DB_ENGINE when set, so whole suites can run on
   * PostgreSQL, else SQLite.
   */
  engine?: 'sqlite' | 'postgres'
}

/** The engine a test shop runs on unless its options say: TEST_DB_ENGINE, SQLite by default. */
export const testEngine = (): 'sqlite' | 'postgres' =>
  process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'sqlite'

/**
 * Starts the real express app on a fresh SQLite file in a temporary folder, on a free
 * loopback port. One shop per test file: the settings are read when the shop's modules are
 * first imported and getPayload() keeps one instance per process, so files that share a worker
 * process get both afresh from the set-up file (support/perFileState.ts).
 */
export async function startTestShop(options: TestShopOptions = {}): Promise<TestShop> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-test-'))
  const postgres =
    (options.engine ?? testEngine()) === 'postgres'
      ? await (await import('./postgres')).startPostgres()
      : undefined
  Object.assign(process.env, {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URI: postgres?.uri ?? `file:${path.join(dataDir, 'shop.db')}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PAYLOAD_SECRET: 'test-secret-test-secret-test-secret-0123',
    NEXT_TELEMETRY_DISABLED: '1',
    // Tests buy many books from one client and address; the hoarding limits have their own test.
    MAX_OPEN_ORDERS_PER_CLIENT: '100000',
    MAX_OPEN_ORDERS_PER_EMAIL: '100000',
    EMAILS_PER_ADDRESS_PER_HOUR: '100000',
    // Payload skips the schema push when the schema equals the last one pushed in this process;
    // each test shop has a new, empty database file.
    PAYLOAD_FORCE_DRIZZLE_PUSH: 'true',
    ...(process.env.TEST_DATABASE_URI && !postgres
      ? { DATABASE_URI: process.env.TEST_DATABASE_URI }
      : {}),
    ...options.env,
  })

  try {
    return await startShop(options, dataDir, postgres)
  } catch (error) {
    await postgres?.stop()
    throw error
  }
}

async function startShop(
  options: TestShopOptions,
  dataDir: string,
  postgres: TestPostgres | undefined,
): Promise<TestShop> {
  // One at a time: concurrent dynamic imports of Payload's graph deadlocked Node 20's loader.
  const { getPayload } = await import('payload')
  const { default: config } = await import('../../src/payload.config')
  const { createApp } = await import('../../src/server/app')
  const { createLogger } = await import('../../src/server/logger')
  const { loadEnv } = await import('../../src/config/env')
  const env = loadEnv()
  const logger = createLogger(env.logLevel)
  const payload = await getPayload({ config })
  if (options.seed !== false) {
    const { seed } = await import('../../src/seed')
    await seed({ payload, env, logger })
  }

  let closeNext: (() => Promise<void>) | undefined
  let nextHandler: Parameters<typeof createApp>[0]['nextHandler']
  if (options.withCms) {
    // Next's built app serves this shop: its route handlers take the Payload instance from
    // getPayload()'s cache, which holds this shop's (the set-up file empties it for each file).
    const { default: next } = await import('next')
    const nextApp = next({ dev: false, dir: fromRoot('cms'), quiet: true })
    await nextApp.prepare()
    const handle = nextApp.getRequestHandler()
    nextHandler = (req, res) => handle(req, res)
    closeNext = () => nextApp.close()
  }

  const app = createApp({ payload, env, logger, nextHandler })
  const server = createHttpServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    payload,
    dataDir,
    databaseUri: env.databaseUri,
    close: async () => {
      await closeServer(server)
      await closeNext?.()
      await payload.db.destroy?.()
      if (postgres) {
        // Payload's destroy leaves its pool open, and the pool's end never resolves: Payload's
        // connect checks one connection out for good. The pool closes its idle connections; the
        // database is then dropped with the one left.
        const pool = (payload.db as unknown as { pool?: { end: () => Promise<void> } }).pool
        void pool?.end().catch(() => {})
        await postgres.stop()
      }
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
