import { mongooseAdapter } from '@payloadcms/db-mongodb'
import { sqliteAdapter } from '@payloadcms/db-sqlite'
import path from 'node:path'
import fs from 'node:fs'
import type { DatabaseAdapterObj } from 'payload'

import type { Env } from '../config/env'
import { fromRoot } from '../config/paths'
import { migrations } from '../migrations'
import { cachePreparedStatements, hardenSqliteClient } from './sqlite-safety'

// How long a write waits for another process's lock. Generous: on a loaded 2-core machine a
// writer in the other process can hold the lock for seconds, and waiting beats failing.
export const SQLITE_BUSY_TIMEOUT_MS = 15_000

/**
 * One code path, two engines: MongoDB when DATABASE_URI is a mongodb URI (production, replica
 * set for transactions), otherwise the embedded SQLite file. The SQLite settings are the ones
 * that keep two processes (web and worker) from losing writes: WAL, a busy timeout, and
 * immediate transactions (see db/sqlite-safety.ts for the libsql fix they need).
 */
export function databaseAdapter(env: Env): DatabaseAdapterObj {
  if (env.databaseEngine === 'mongodb') {
    // MongoDB needs no schema migrations; indexes are built from the collections.
    return mongooseAdapter({ url: env.databaseUri })
  }
  cachePreparedStatements()
  const file = env.databaseUri.slice('file:'.length)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const adapter = sqliteAdapter({
    client: { url: env.databaseUri },
    busyTimeout: SQLITE_BUSY_TIMEOUT_MS,
    wal: true,
    transactionOptions: { behavior: 'immediate' },
    migrationDir: fromRoot('cms/src/migrations'),
    prodMigrations: migrations,
    push: env.dbPush,
  })
  const init = adapter.init
  adapter.init = (args) => {
    const instance = init(args) as ReturnType<typeof init> & {
      client?: Parameters<typeof hardenSqliteClient>[0]
    }
    const connect = instance.connect
    if (connect) {
      instance.connect = async function hardenedConnect(this: typeof instance, options) {
        await connect.call(this, options)
        if (this.client) hardenSqliteClient(this.client, SQLITE_BUSY_TIMEOUT_MS)
      }
    }
    return instance
  }
  return adapter
}
