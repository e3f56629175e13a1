import type { Payload } from 'payload'

import { engineOf, sqlite } from './engine'

/** A LIKE pattern (`ESCAPE '\'`) finding `word` anywhere, every character as itself. */
const containing = (word: string) => `%${word.replace(/[\\%_]/g, '\\$&')}%`

/**
 * SQLite: the orders whose id, e-mail, payment address or payment txid (the order's own or one
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
  if (engineOf(payload) !== 'sqlite') return null
  const patterns = q.split(/\s+/).filter(Boolean).map(containing)
  const holdsAll = (column: string) =>
    `(${patterns.map(() => `${column} LIKE ? ESCAPE '\\'`).join(' AND ')})`
  const columns = ['id', 'user_email', 'payment_address', 'payment_txid']
  const result = await sqlite(payload).execute({
    sql: `SELECT id FROM orders WHERE ${columns.map(holdsAll).join(' OR ')}
          UNION SELECT order_id FROM payments WHERE order_id IS NOT NULL AND ${holdsAll('txid')}`,
    args: [...columns.flatMap(() => patterns), ...patterns],
  })
  return result.rows.map((row) => String(row.id))
}
