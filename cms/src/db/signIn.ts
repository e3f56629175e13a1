import type { Payload, PayloadRequest } from 'payload'

import { slugs } from '../collections/slugs'
import { engineOf, mongo, sqliteFor } from './engine'

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
   * user in within its own): the count joins it rather than wait on the lock it holds. A
   * transaction opened but not begun is left alone: the count commits on its own, so the
   * caller's wait for the turn holds no lock (a reset request waiting inside Payload's
   * transaction held the shop's writes, every checkout included, for seconds).
   */
  req?: Partial<PayloadRequest>
  now?: number
}): Promise<{ waitMs: number } | { retryAfterMs: number }> {
  const epoch = new Date(0)
  const db =
    engineOf(payload) === 'mongodb'
      ? undefined
      : await sqliteFor(payload, req, { onlyIfBegun: true })
  for (let attempt = 0; attempt < 50; attempt++) {
    let row: { hits: number; startedAt: Date; resetAt: Date; version: unknown } | null = null
    if (engineOf(payload) === 'mongodb') {
      const model = mongo(payload, slugs.rateLimits)
      const doc = await model.findOne({ key }).lean()
      if (doc)
        row = {
          hits: Number(doc.hits),
          startedAt: new Date(doc.updatedAt as Date),
          resetAt: new Date(doc.resetAt as Date),
          version: doc.updatedAt,
        }
    } else {
      const found = await db!.execute({
        sql: 'SELECT hits, updated_at, reset_at FROM rate_limits WHERE key = ?',
        args: [key],
      })
      const r = found.rows[0]
      if (r)
        row = {
          hits: Number(r.hits),
          startedAt: new Date(String(r.updated_at)),
          resetAt: new Date(String(r.reset_at)),
          version: r.updated_at,
        }
    }
    const fresh = !row || row.resetAt.getTime() <= now
    const failures = fresh ? 0 : row!.hits
    const startAt = fresh
      ? now
      : Math.max(now, row!.startedAt.getTime() + spacingAfter(failures, spacing))
    const waitMs = startAt - now
    if (waitMs > spacing.maxWaitMs) return { retryAfterMs: waitMs }
    const next = {
      hits: failures + 1,
      startedAt: new Date(startAt),
      resetAt: new Date(startAt + spacing.forgetAfterMs),
    }
    let written: boolean
    if (engineOf(payload) === 'mongodb') {
      const model = mongo(payload, slugs.rateLimits)
      if (!row) {
        try {
          await model.updateOne(
            { key },
            {
              $setOnInsert: {
                key,
                hits: 0,
                resetAt: epoch,
                updatedAt: epoch,
                createdAt: new Date(),
              },
            },
            { upsert: true },
          )
        } catch {
          // Another process created it first: read it again.
        }
        continue
      }
      const done = await model
        .findOneAndUpdate(
          { key, hits: row.hits, updatedAt: row.version },
          { $set: { hits: next.hits, updatedAt: next.startedAt, resetAt: next.resetAt } },
          { new: true },
        )
        .lean()
      written = Boolean(done)
    } else {
      if (!row) {
        await db!.execute({
          sql: `INSERT INTO rate_limits (key, hits, reset_at, updated_at, created_at) VALUES (?, 0, ?, ?, ?)
                ON CONFLICT (key) DO NOTHING`,
          args: [key, epoch.toISOString(), epoch.toISOString(), new Date().toISOString()],
        })
        continue
      }
      const done = await db!.execute({
        sql: `UPDATE rate_limits SET hits = ?, updated_at = ?, reset_at = ?
              WHERE key = ? AND hits = ? AND updated_at = ? RETURNING key`,
        args: [
          next.hits,
          next.startedAt.toISOString(),
          next.resetAt.toISOString(),
          key,
          row.hits,
          String(row.version),
        ],
      })
      written = done.rows.length > 0
    }
    if (written) return { waitMs }
  }
  throw new Error('sign-in spacing: too much contention on one account')
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
  await (
    await sqliteFor(payload, req)
  ).execute({
    sql: 'DELETE FROM rate_limits WHERE key = ?',
    args: [key],
  })
}
