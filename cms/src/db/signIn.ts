import type { InValue } from '@libsql/client'
import type { Payload, PayloadRequest } from 'payload'

import { slugs } from '../collections/slugs'
import { dateOf, engineOf, mongo, numbered, postgres, postgresFor, sqliteFor } from './engine'

/**
 * Per-account sign-in spacing (decision 007), shared by every web process: one rate-limits row
 * per account key, holding the failures in a row (`hits`), the start of the last attempt's turn
 * (`updatedAt`) and when the account is forgotten (`resetAt`). Read, then written only if nobody
 * wrote in between (compare-and-set on hits and updatedAt), so concurrent guesses each get their
 * own turn.
 */
export type SignInSpacing = {
  freeFailures: number
  baseDelayMs: number
  maxDelayMs: number
  maxWaitMs: number
  forgetAfterMs: number
}

export function spacingAfter(failures: number, s: SignInSpacing): number {
  if (failures < s.freeFailures) return 0
  return Math.min(s.maxDelayMs, s.baseDelayMs * 2 ** (failures - s.freeFailures))
}

export async function reserveSignInTurn({
  payload,
  key,
  spacing,
  req,
  now = Date.now(),
}: {
  payload: Payload
  key: string
  spacing: SignInSpacing
  /**
   * A sign-in inside a transaction that already writes (Payload's first-register signs the new
   * user in within its own): on SQLite the count joins it rather than wait on the lock it holds.
   * A transaction opened but not begun is left alone: the count commits on its own, so the
   * caller's wait for the turn holds no lock (a reset request waiting inside Payload's
   * transaction held the shop's writes, every checkout included, for seconds). On PostgreSQL,
   * which locks rows, not the database, the count always commits on its own.
   */
  req?: Partial<PayloadRequest>
  now?: number
}): Promise<{ waitMs: number } | { retryAfterMs: number }> {
  const store = await turnStoreOf(payload, req)
  for (let attempt = 0; attempt < 50; attempt++) {
    const row = await store.read(key)
    const fresh = !row || row.resetAt.getTime() <= now
    const failures = fresh ? 0 : row!.hits
    const startAt = fresh
      ? now
      : Math.max(now, row!.startedAt.getTime() + spacingAfter(failures, spacing))
    const waitMs = startAt - now
    if (waitMs > spacing.maxWaitMs) return { retryAfterMs: waitMs }
    if (!row) {
      // Created empty, then read again: every claimant compares and sets the same row.
      await store.create(key)
      continue
    }
    const next = {
      hits: failures + 1,
      startedAt: new Date(startAt),
      resetAt: new Date(startAt + spacing.forgetAfterMs),
    }
    if (await store.compareAndSet(key, row, next)) return { waitMs }
  }
  throw new Error('sign-in spacing: too much contention on one account')
}

/** An account's row: failures in a row, its last turn's start, when it is forgotten. */
type TurnRow = { hits: number; startedAt: Date; resetAt: Date; version: unknown }

/** The three steps of a turn on one engine. */
type TurnStore = {
  read: (key: string) => Promise<TurnRow | null>
  /** The row, empty (forgotten since 1970), unless another process created it first. */
  create: (key: string) => Promise<void>
  /** Writes `next` only if the row is still `row`; whether it did. */
  compareAndSet: (
    key: string,
    row: TurnRow,
    next: { hits: number; startedAt: Date; resetAt: Date },
  ) => Promise<boolean>
}

const EPOCH = new Date(0)

async function turnStoreOf(payload: Payload, req?: Partial<PayloadRequest>): Promise<TurnStore> {
  const engine = engineOf(payload)
  if (engine === 'mongodb') return mongoTurns(payload)
  if (engine === 'postgres') {
    const pool = postgres(payload)
    return sqlTurns((sql, values) => pool.query(numbered(sql), values))
  }
  const db = await sqliteFor(payload, req, { onlyIfBegun: true })
  return sqlTurns(async (sql, values) => {
    const result = await db.execute({ sql, args: values as InValue[] })
    return { rows: result.rows as unknown as Record<string, unknown>[] }
  })
}

/** SQLite and PostgreSQL: the same statements, run by `run`. */
function sqlTurns(
  run: (sql: string, values: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>,
): TurnStore {
  return {
    read: async (key) => {
      const found = await run('SELECT hits, updated_at, reset_at FROM rate_limits WHERE key = ?', [
        key,
      ])
      const r = found.rows[0]
      if (!r) return null
      return {
        hits: Number(r.hits),
        startedAt: dateOf(r.updated_at),
        resetAt: dateOf(r.reset_at),
        version: r.updated_at,
      }
    },
    create: async (key) => {
      await run(
        `INSERT INTO rate_limits (key, hits, reset_at, updated_at, created_at) VALUES (?, 0, ?, ?, ?)
         ON CONFLICT (key) DO NOTHING`,
        [key, EPOCH.toISOString(), EPOCH.toISOString(), new Date().toISOString()],
      )
    },
    compareAndSet: async (key, row, next) => {
      const done = await run(
        `UPDATE rate_limits SET hits = ?, updated_at = ?, reset_at = ?
         WHERE key = ? AND hits = ? AND updated_at = ? RETURNING key`,
        [
          next.hits,
          next.startedAt.toISOString(),
          next.resetAt.toISOString(),
          key,
          row.hits,
          // SQLite compares the text it stored; PostgreSQL the timestamp it answered (a Date).
          row.version instanceof Date ? row.version.toISOString() : String(row.version),
        ],
      )
      return done.rows.length > 0
    },
  }
}

function mongoTurns(payload: Payload): TurnStore {
  const model = () => mongo(payload, slugs.rateLimits)
  return {
    read: async (key) => {
      const doc = await model().findOne({ key }).lean()
      if (!doc) return null
      return {
        hits: Number(doc.hits),
        startedAt: new Date(doc.updatedAt as Date),
        resetAt: new Date(doc.resetAt as Date),
        version: doc.updatedAt,
      }
    },
    create: async (key) => {
      try {
        await model().updateOne(
          { key },
          {
            $setOnInsert: {
              key,
              hits: 0,
              resetAt: EPOCH,
              updatedAt: EPOCH,
              createdAt: new Date(),
            },
          },
          { upsert: true },
        )
      } catch {
        // Another process created it first: read it again.
      }
    },
    compareAndSet: async (key, row, next) => {
      const done = await model()
        .findOneAndUpdate(
          { key, hits: row.hits, updatedAt: row.version },
          { $set: { hits: next.hits, updatedAt: next.startedAt, resetAt: next.resetAt } },
          { new: true },
        )
        .lean()
      return Boolean(done)
    },
  }
}

/**
 * A successful sign-in: the account starts afresh. Written in the sign-in's own transaction
 * (`req`), so it never waits on the write that transaction holds.
 */
export async function clearSignInTurns({
  payload,
  key,
  req,
}: {
  payload: Payload
  key: string
  req?: Partial<PayloadRequest>
}): Promise<void> {
  if (engineOf(payload) === 'mongodb') {
    await payload.db.deleteMany({
      collection: slugs.rateLimits,
      where: { key: { equals: key } },
      req,
    })
    return
  }
  if (engineOf(payload) === 'postgres') {
    await (await postgresFor(payload, req)).query('DELETE FROM rate_limits WHERE key = $1', [key])
    return
  }
  await (
    await sqliteFor(payload, req)
  ).execute({
    sql: 'DELETE FROM rate_limits WHERE key = ?',
    args: [key],
  })
}
