// The bench's own reads and writes of the shop's database (watched orders, the stock check after
// the rush, the rush's progress, past orders), beside the shop's processes, on either engine: the
// production shop's SQLite file or its PostgreSQL database, whichever it runs on now
// (`currentDatabase` in shop.mjs). Statements are written once, with `?` placeholders.
import { createClient } from '@libsql/client'
import pg from 'pg'

import { sleep } from './context.mjs'
import { currentDatabase } from './shop.mjs'

/** `?` placeholders numbered for PostgreSQL (`$1`...), as the shop's own `numbered` does. */
export const numbered = (sql) => {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}

const statementOf = (stmt) => (typeof stmt === 'string' ? { sql: stmt, args: [] } : stmt)

/**
 * A client of the shop's database, the same on both engines: `execute({ sql, args })` and
 * `batch(statements, 'read' | 'write')` (one transaction; 'read' is one snapshot) answer
 * `{ rows }` (rows by column name; PostgreSQL answers numeric columns as strings, so read numbers
 * with `Number`). `transactions` counts the transactions it ran (each statement alone is one),
 * so a count of the database's own can leave the bench's out. The caller closes it.
 */
export function openShopDb(database = currentDatabase()) {
  return database.engine === 'postgres' ? postgresDb(database.uri) : sqliteDb(database.uri)
}

function sqliteDb(url) {
  const client = createClient({ url })
  const db = {
    engine: 'sqlite',
    transactions: 0,
    async execute(stmt) {
      db.transactions += 1
      return client.execute(statementOf(stmt))
    },
    async batch(stmts, mode = 'write') {
      db.transactions += 1
      return client.batch(stmts.map(statementOf), mode)
    },
    close: () => client.close(),
  }
  return db
}

function postgresDb(uri) {
  const client = new pg.Client({ connectionString: uri })
  let connected
  const ready = () => (connected ??= client.connect())
  const query = async ({ sql, args = [] }) => {
    const { rows } = await client.query(numbered(sql), args)
    return { rows }
  }
  const db = {
    engine: 'postgres',
    transactions: 0,
    async execute(stmt) {
      await ready()
      db.transactions += 1
      return query(statementOf(stmt))
    },
    async batch(stmts, mode = 'write') {
      await ready()
      db.transactions += 1
      await client.query(
        mode === 'read' ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN',
      )
      try {
        const results = []
        for (const stmt of stmts) results.push(await query(statementOf(stmt)))
        await client.query('COMMIT')
        return results
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw error
      }
    },
    close: () => (connected ? client.end().catch(() => undefined) : Promise.resolve()),
  }
  return db
}

/**
 * Runs a statement batch of the bench's own client, again while the shop holds SQLite's write
 * lock: @libsql/client's connection after a transaction has no busy timeout (FIELD-NOTES), so
 * a batch meeting the worker's write would fail the whole run with SQLITE_BUSY. (PostgreSQL
 * waits for the rows it needs by itself.)
 */
export async function whenNotBusy(run, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await run()
    } catch (error) {
      if (!String(error?.code).startsWith('SQLITE_BUSY') || Date.now() > deadline) throw error
      await sleep(20)
    }
  }
}
