import type { Payload, PayloadRequest } from 'payload'

import { slugs } from '../collections/slugs'
import { engineOf, mongo, postgresFor, sessionOf } from './engine'

/**
 * Takes the rows of these orders for the request's open transaction, before Payload reads them
 * for an update: Payload's update reads an order, merges the change into it and writes the whole
 * row back, so a change another writer commits between that read and that write would be put
 * back (the worker settling an order while the owner ships it, a delivery job beside a look).
 *
 * - PostgreSQL (read committed): `SELECT ... FOR UPDATE`, the rows in id order so two writers of
 *   the same orders wait for each other instead of deadlocking. A second writer waits until the
 *   first commits, then reads what it wrote.
 * - SQLite: nothing to do. A write transaction begins IMMEDIATE and holds the database's one
 *   writer lock from its first statement, so nothing commits between its read and its write.
 * - MongoDB (untested here, decision 022): the documents are touched inside the transaction's
 *   session, so a second transaction writing one of them fails with a write conflict (its
 *   caller's error, retried as any failed write) instead of writing over it. Without a session
 *   there is nothing to hold.
 */
export async function lockOrderRows({
  payload,
  req,
  ids,
}: {
  payload: Payload
  req: Partial<PayloadRequest>
  /** The orders' ids, asked only where the engine takes rows. */
  ids: () => Promise<readonly (string | number)[]>
}): Promise<void> {
  const engine = engineOf(payload)
  if (engine === 'sqlite' || !req.transactionID) return
  const sorted = [...new Set((await ids()).map(String))].sort()
  if (sorted.length === 0) return
  if (engine === 'postgres') {
    const runner = await postgresFor(payload, req)
    await runner.query('SELECT id FROM orders WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE', [
      sorted,
    ])
  } else {
    const session = await sessionOf(payload, req)
    if (!session) return
    for (const id of sorted)
      await mongo(payload, slugs.orders).updateOne(
        { _id: id },
        { $currentDate: { updatedAt: true } },
        { session },
      )
  }
}
