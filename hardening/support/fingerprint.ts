import { createHash } from 'node:crypto'

import type { Client } from '@libsql/client'
import type { Payload } from 'payload'

// Columns a refused sign-in may change by design (Payload's per-account lockout).
const LOCKOUT_COLUMNS = new Set(['login_attempts', 'lock_until', 'updated_at'])
// Payload's own bookkeeping, not shop data.
// Bookkeeping, not shop data: a refused request still counts against its client's rate limit,
// and the worker's lease is renewed whatever the requests do.
const IGNORED_TABLES = /^(payload_|sqlite_|rate_limits$|leases$)/

/**
 * A hash of every record the shop keeps (SQLite: every table, row by row), taken before and
 * after a request that must not change anything. On MongoDB the collections are read through
 * Payload instead (slower, same meaning).
 */
export function recordFingerprint(payload: Payload): () => Promise<string> {
  const client = (payload.db as unknown as { client?: Client }).client
  if (payload.db.name === 'mongoose' || !client) {
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
  let tables: string[] | undefined
  return async () => {
    tables ??= (
      await client.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    ).rows
      .map((row) => String(row.name))
      .filter((name) => !IGNORED_TABLES.test(name))
    const hash = createHash('sha256')
    for (const table of tables) {
      const result = await client.execute(`SELECT * FROM "${table}" ORDER BY rowid`)
      const columns = result.columns.filter((c) => !(table === 'staff' && LOCKOUT_COLUMNS.has(c)))
      for (const row of result.rows)
        hash.update(JSON.stringify([table, columns.map((c) => String(row[c]))]))
    }
    return hash.digest('hex')
  }
}
