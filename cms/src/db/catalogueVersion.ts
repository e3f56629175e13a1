import Database from 'libsql'
import type { Payload } from 'payload'

import { SQLITE_BUSY_TIMEOUT_MS } from './adapter'
import { engineOf, postgres, sqlite } from './engine'

/**
 * The catalogue's version: each product's id, stock and update time, and the newest cover
 * change. The public catalogue (operations/products/catalogue.ts) serves from memory while it
 * is unchanged.
 */
const VERSION_SQL = `SELECT (SELECT group_concat(id || ':' || coalesce(current_stock, '') || ':' || updated_at, ',') FROM products)
  || '|' || coalesce((SELECT max(updated_at) FROM media), '') AS v`

/**
 * PostgreSQL: the same version, in id order (string_agg has no order of its own). Timestamps as
 * epoch milliseconds, so the text does not depend on the server's time zone.
 */
const VERSION_SQL_PG = `SELECT coalesce((SELECT string_agg(id || ':' || coalesce(current_stock::text, '') || ':'
    || floor(extract(epoch FROM updated_at) * 1000)::text, ',' ORDER BY id) FROM products), '')
  || '|' || coalesce((SELECT floor(extract(epoch FROM max(updated_at)) * 1000)::text FROM media), '') AS v`

/** Reads the catalogue's version: at once on SQLite, one pooled query on PostgreSQL. */
export type VersionReader = () => string | Promise<string>

/**
 * The version check: on SQLite a prepared statement on a connection of its own, read
 * synchronously; on PostgreSQL one query on Payload's pool (any connection sees every
 * committed change); null on MongoDB.
 */
export async function openVersionReader(payload: Payload): Promise<VersionReader | null> {
  const engine = engineOf(payload)
  if (engine === 'mongodb') return null
  if (engine === 'postgres') {
    const pool = postgres(payload)
    return async () => String((await pool.query(VERSION_SQL_PG)).rows[0]?.v ?? '')
  }
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
