import Database from 'libsql'
import type { Payload } from 'payload'

import { SQLITE_BUSY_TIMEOUT_MS } from './adapter'
import { engineOf, sqlite } from './engine'

/**
 * The catalogue's version: each product's id, stock and update time, and the newest cover
 * change. The public catalogue (operations/products/catalogue.ts) serves from memory while it
 * is unchanged.
 */
const VERSION_SQL = `SELECT (SELECT group_concat(id || ':' || coalesce(current_stock, '') || ':' || updated_at, ',') FROM products)
  || '|' || coalesce((SELECT max(updated_at) FROM media), '') AS v`

/** The version check on SQLite: a prepared statement on a connection of its own; null on MongoDB. */
export async function openVersionReader(payload: Payload): Promise<(() => string) | null> {
  if (engineOf(payload) !== 'sqlite') return null
  const found = await sqlite(payload).execute(
    "SELECT file FROM pragma_database_list WHERE name = 'main'",
  )
  const file = String(found.rows[0]?.file ?? '')
  if (!file) throw new Error('The SQLite database has no file to read the catalogue version from.')
  const db = new Database(file)
  db.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`)
  const statement = db.prepare(VERSION_SQL)
  return () => String((statement.get() as { v?: unknown } | undefined)?.v ?? '')
}
