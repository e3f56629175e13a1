import { createHash } from 'node:crypto'

import type { Payload } from 'payload'

import { runSql } from '@shop/cms/testing'
import type { SqlRow } from '@shop/cms/testing'

// Columns a refused sign-in may change by design (Payload's per-account lockout).
const LOCKOUT_COLUMNS = new Set(['login_attempts', 'lock_until', 'updated_at'])
// Bookkeeping, not shop data: Payload's own tables (preferences, locks, migrations), SQLite's
// catalogue; a refused request still counts against its client's rate limit, and the worker's
// lease is renewed whatever the requests do.
const IGNORED_TABLES = /^(payload_|sqlite_|rate_limits$|leases$)/

/** The shop's own tables, by name: SQLite's catalogue, or PostgreSQL's schema of the shop. */
const TABLES = {
  sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
  postgres: `SELECT table_name AS name FROM information_schema.tables
               WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
               ORDER BY table_name`,
}

/**
 * One value as text, the same for the same stored value: PostgreSQL answers timestamps as Dates
 * (to the millisecond here, where `String` would drop it), JSON columns as objects and numeric
 * columns as strings; SQLite answers text and numbers.
 */
function valueText(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'bigint') return String(value)
  if (value instanceof ArrayBuffer) return Buffer.from(value).toString('hex')
  if (Buffer.isBuffer(value)) return value.toString('hex')
  return value
}

/**
 * A hash of every record the shop keeps, taken before and after a request that must not change
 * anything. On SQL (SQLite, or PostgreSQL with `TEST_DB_ENGINE=postgres`): every table of the
 * shop, row by row, read with SQL beneath Payload, so a write Payload would not show (a row of a
 * join table, a column no collection reads) counts too; a table's rows are hashed in the order of
 * their text, which neither engine's storage order decides. On MongoDB the collections are read
 * through Payload instead (slower, same meaning).
 */
export function recordFingerprint(payload: Payload): () => Promise<string> {
  const engine = payload.db.name
  if (engine === 'mongoose') {
    const slugs = payload.config.collections
      .map((c) => c.slug)
      .filter((s) => !s.startsWith('payload-') && s !== 'rate-limits' && s !== 'leases')
    return async () => {
      const hash = createHash('sha256')
      for (const collection of slugs) {
        const found = await payload.find({ collection, pagination: false, depth: 0, sort: 'id' })
        for (const doc of found.docs as unknown as Record<string, unknown>[]) {
          const { loginAttempts: _a, lockUntil: _l, updatedAt: _u, ...rest } = doc
          hash.update(JSON.stringify([collection, collection === 'staff' ? rest : doc]))
        }
      }
      return hash.digest('hex')
    }
  }
  if (engine !== 'sqlite' && engine !== 'postgres')
    throw new Error(`No fingerprint of a ${engine} database.`)
  let tables: string[] | undefined
  return async () => {
    tables ??= (await runSql(payload, TABLES[engine]))
      .map((row) => String(row.name))
      .filter((name) => !IGNORED_TABLES.test(name))
    if (tables.length === 0) throw new Error('The fingerprint found no table of the shop.')
    const hash = createHash('sha256')
    for (const table of tables) {
      const rows: SqlRow[] = await runSql(payload, `SELECT * FROM "${table}"`)
      const lines = rows
        .map((row) =>
          JSON.stringify(
            Object.keys(row)
              .filter((c) => !(table === 'staff' && LOCKOUT_COLUMNS.has(c)))
              .sort()
              .map((c) => [c, valueText(row[c])]),
          ),
        )
        .sort()
      for (const line of lines) hash.update(`${table}\t${line}\n`)
    }
    return hash.digest('hex')
  }
}
