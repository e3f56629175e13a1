import type { InValue } from '@libsql/client'
import type { Payload, PayloadRequest } from 'payload'

import { slugs } from '../collections/slugs'
import { engineOf, mongo, numbered, nowIso, postgresFor, sessionOf, sqliteFor } from './engine'

/** The shop's counters: the next address index, and the chain looks the dashboard shows. */

export const ADDRESS_INDEX_COUNTER = 'address-index'

/** Adds one to the counter `name` (created at 1) and answers its new value, atomically. */
async function incrementCounter(
  payload: Payload,
  name: string,
  req?: Partial<PayloadRequest>,
): Promise<number> {
  if (engineOf(payload) === 'mongodb') {
    const session = await sessionOf(payload, req)
    const doc = await mongo(payload, slugs.counters)
      .findOneAndUpdate(
        { name },
        {
          $inc: { value: 1 },
          $setOnInsert: { createdAt: new Date() },
          $set: { updatedAt: new Date() },
        },
        { new: true, upsert: true, ...(session ? { session } : {}) },
      )
      .lean()
    return Number(doc?.value)
  }
  const statement = counterIncrement(name)
  if (engineOf(payload) === 'postgres') {
    // The upsert locks the counter's row until its transaction ends: never the same value twice.
    const result = await (
      await postgresFor(payload, req)
    ).query(numbered(statement.sql), statement.args)
    return Number(result.rows[0]?.value)
  }
  const result = await (await sqliteFor(payload, req)).execute(statement)
  return Number(result.rows[0]?.value)
}

/**
 * SQLite and PostgreSQL (with `numbered`): adds `by` (one unless told) to the counter `name`
 * (created at `by`), answering its new value as `value`.
 */
export function counterIncrement(name: string, by = 1): { sql: string; args: InValue[] } {
  const at = nowIso()
  return {
    sql: `INSERT INTO counters (name, value, updated_at, created_at) VALUES (?, ?, ?, ?)
          ON CONFLICT (name) DO UPDATE SET value = counters.value + excluded.value, updated_at = excluded.updated_at
          RETURNING value`,
    args: [name, by, at, at],
  }
}

/**
 * Claims the next BIP32 index (0/n) for a payment address. Never returns the same n twice; in a
 * transaction (`req`), an index whose order is rolled back was never given out and comes again.
 */
export async function claimAddressIndex({
  payload,
  req,
}: {
  payload: Payload
  req?: Partial<PayloadRequest>
}): Promise<number> {
  return (await incrementCounter(payload, ADDRESS_INDEX_COUNTER, req)) - 1
}

/**
 * The worker's looks at the chain: counted once per pass that asked the chain about orders, so
 * the counter's updatedAt says when the worker last did (the owner's health view reads it).
 */
export const CHAIN_LOOKS_COUNTER = 'chain-looks'

export async function countChainLook({ payload }: { payload: Payload }): Promise<void> {
  await incrementCounter(payload, CHAIN_LOOKS_COUNTER)
}
