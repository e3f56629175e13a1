import path from 'node:path'
import fs from 'node:fs'
import type { DatabaseAdapterObj } from 'payload'

import type { Env } from '../config/env'
import { fromRoot } from '../config/paths'
import { createShopSqliteClient } from './sqlite-client'

// How long a write waits for another process's lock. Generous: on a loaded 2-core machine a
// writer in the other process can hold the lock for seconds, and waiting beats failing.
export const SQLITE_BUSY_TIMEOUT_MS = 15_000

/** PostgreSQL's pool: the connections one process may hold at once (Payload keeps one open). */
export const POSTGRES_POOL_SIZE = 20

/**
 * One code path, three engines: PostgreSQL when DATABASE_URI is a postgres URI (a pool, real
 * transactions; the schema pushed in test mode and migrated at start in production, from
 * cms/src/migrations-postgres), MongoDB when it is a mongodb URI (replica set for transactions),
 * otherwise the embedded SQLite file. The SQLite settings are the ones
 * that keep two processes (web and worker) from losing writes: WAL, a busy timeout, and
 * immediate transactions, on our own client over long-lived libsql connections (see
 * db/sqlite-client.ts for the libsql faults it works around).
 */
export async function databaseAdapter(env: Env): Promise<DatabaseAdapterObj> {
  if (env.databaseEngine === 'postgres') {
    const [{ postgresAdapter }, { migrations }] = await Promise.all([
      import('@payloadcms/db-postgres'),
      import('../migrations-postgres'),
    ])
    const adapter = postgresAdapter({
      pool: { connectionString: env.databaseUri, max: POSTGRES_POOL_SIZE },
      migrationDir: fromRoot('cms/src/migrations-postgres'),
      prodMigrations: migrations,
      push: env.dbPush,
    })
    return withPoolErrorsLogged(adapter)
  }
  if (env.databaseEngine === 'mongodb') {
    const { mongooseAdapter } = await import('@payloadcms/db-mongodb')
    // MongoDB needs no schema migrations; indexes are built from the collections.
    return mongooseAdapter({ url: env.databaseUri })
  }
  const [{ sqliteAdapter }, { migrations }] = await Promise.all([
    import('@payloadcms/db-sqlite'),
    import('../migrations'),
  ])
  const file = env.databaseUri.slice('file:'.length)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const adapter = sqliteAdapter({
    // The client (set in connect below) applies WAL, the busy timeout and synchronous=FULL to
    // every connection it opens.
    client: { url: env.databaseUri },
    transactionOptions: { behavior: 'immediate' },
    migrationDir: fromRoot('cms/src/migrations'),
    prodMigrations: migrations,
    push: env.dbPush,
  })
  const init = adapter.init
  adapter.init = (args) => {
    const instance = init(args) as ReturnType<typeof init> & { client?: unknown }
    const connect = instance.connect
    if (connect) {
      instance.connect = async function connectOurClient(this: typeof instance, options) {
        // Payload's adapter only creates its own client when none is set.
        this.client ??= createShopSqliteClient({
          path: file,
          busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS,
        })
        await connect.call(this, options)
      }
    }
    return instance
  }
  return adapter
}

type PoolEvents = { on: (event: 'error', listener: (error: Error) => void) => unknown }

const listened = new WeakSet<PoolEvents>()

/**
 * node-postgres's pool emits `error` when the server ends an idle connection (a restart, a
 * fail-over, an administrator): with no listener that is an uncaught exception and the process
 * dies. Payload's adapter adds none; the pool replaces the connection on its next use.
 */
function withPoolErrorsLogged(adapter: DatabaseAdapterObj): DatabaseAdapterObj {
  const init = adapter.init
  adapter.init = (args) => {
    const instance = init(args) as ReturnType<typeof init> & { pool?: PoolEvents }
    const connect = instance.connect
    if (connect) {
      instance.connect = async function connectLoggingPoolErrors(this: typeof instance, options) {
        await connect.call(this, options)
        // Once per pool: connect calls itself again after creating a missing database.
        if (!this.pool || listened.has(this.pool)) return
        listened.add(this.pool)
        this.pool.on('error', (error) =>
          args.payload.logger.warn({ err: error }, 'PostgreSQL closed an idle connection'),
        )
      }
    }
    return instance
  }
  return adapter
}
