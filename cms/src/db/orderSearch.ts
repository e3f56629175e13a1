import type { Payload } from 'payload'

import { engineOf, numbered, postgres, sqlite } from './engine'

/** A LIKE pattern (`ESCAPE '\'`) finding `word` anywhere, every character as itself. */
const containing = (word: string) => `%${word.replace(/[\\%_]/g, '\\$&')}%`

/**
 * SQLite and PostgreSQL: the orders whose id, e-mail, payment address or payment txid (the order's own or one
 * of its payments') holds every word of the search, as Payload's `like` finds them, but with `%`
 * and `_` matched as themselves: Payload's `like` on SQLite puts the words into a LIKE pattern
 * as they are, with no escape, so `q=%` would list every order. Null on MongoDB, where
 * Payload's `like` already matches every character as itself.
 */
export async function ordersHoldingLiterally(
  payload: Payload,
  q: string,
): Promise<string[] | null> {
  // MongoDB: Payload's `like` escapes the regex's characters, so the search goes to it as it is.
  const engine = engineOf(payload)
  if (engine === 'mongodb') return null
  const patterns = q.split(/\s+/).filter(Boolean).map(containing)
  // PostgreSQL: ILIKE, as Payload's `like` there (and SQLite's LIKE) ignores case.
  const like = engine === 'postgres' ? 'ILIKE' : 'LIKE'
  const holdsAll = (column: string) =>
    `(${patterns.map(() => `${column} ${like} ? ESCAPE '\\'`).join(' AND ')})`
  const columns = ['id', 'user_email', 'payment_address', 'payment_txid']
  const sql = `SELECT id FROM orders WHERE ${columns.map(holdsAll).join(' OR ')}
          UNION SELECT order_id FROM payments WHERE order_id IS NOT NULL AND ${holdsAll('txid')}`
  const args = [...columns.flatMap(() => patterns), ...patterns]
  const rows =
    engine === 'postgres'
      ? (await postgres(payload).query(numbered(sql), args)).rows
      : (await sqlite(payload).execute({ sql, args })).rows
  return rows.map((row) => String(row.id))
}
