import type { Client, InStatement, ResultSet, TransactionMode } from '@libsql/client'
import type { Payload, PayloadRequest } from 'payload'

import { hasBegun } from './sqlite-client'

/**
 * The few writes that must be atomic under concurrency (two web processes, the worker), one
 * function each, with one implementation per database engine: a single conditional
 * `UPDATE ... RETURNING` on SQLite, a conditional `updateOne`/`findOneAndUpdate` on MongoDB.
 * Everything else goes through Payload's Local API.
 */

export type Engine = 'sqlite' | 'mongodb'

export function engineOf(payload: Payload): Engine {
  return payload.db.name === 'mongoose' ? 'mongodb' : 'sqlite'
}

export function sqlite(payload: Payload): Client {
  const client = (payload.db as unknown as { client?: Client }).client
  if (!client) throw new Error('The SQLite client is not connected.')
  return client
}

/** A write that need not survive a power cut (ShopSqliteClient.executeWithoutSync). */
export function withoutSync(payload: Payload, stmt: InStatement): Promise<ResultSet> {
  const client = sqlite(payload) as Client & {
    executeWithoutSync?: (stmt: InStatement) => Promise<ResultSet>
  }
  return client.executeWithoutSync ? client.executeWithoutSync(stmt) : client.execute(stmt)
}

export type SqliteRunner = {
  execute: (stmt: InStatement) => Promise<ResultSet>
  batch: (stmts: InStatement[], mode?: TransactionMode) => Promise<ResultSet[]>
}

/** The transaction a Payload request has open, if any (the adapter keeps one per id). */
export async function sessionOf(payload: Payload, req?: Partial<PayloadRequest>): Promise<unknown> {
  const id = req?.transactionID ? await req.transactionID : undefined
  if (id === undefined || id === null) return undefined
  return (payload.db as unknown as { sessions?: Record<string, unknown> }).sessions?.[String(id)]
}

/**
 * Where a write of this module runs on SQLite: inside the request's open transaction when it has
 * one (so it commits or rolls back with the change that caused it, for example an order's
 * status), otherwise on the client.
 */
export async function sqliteFor(
  payload: Payload,
  req?: Partial<PayloadRequest>,
  { onlyIfBegun = false }: { onlyIfBegun?: boolean } = {},
): Promise<SqliteRunner> {
  const session = (await sessionOf(payload, req)) as
    { db?: { session?: { tx?: SqliteRunner } } } | undefined
  const tx = session?.db?.session?.tx
  // A transaction opened but not yet begun holds no lock: with `onlyIfBegun`, a write that must
  // not hold one for the rest of the operation commits on its own instead of beginning it.
  if (tx && (!onlyIfBegun || hasBegun(tx)))
    return { execute: (stmt) => tx.execute(stmt), batch: (stmts) => tx.batch(stmts) }
  return sqlite(payload)
}

// Mongoose models, typed just enough for the calls below.
export type MongoModel = {
  findOneAndUpdate: (
    filter: Record<string, unknown>,
    update: Record<string, unknown> | Record<string, unknown>[],
    options: Record<string, unknown>,
  ) => { lean: () => Promise<Record<string, unknown> | null> }
  updateOne: (
    filter: Record<string, unknown>,
    update: Record<string, unknown>,
    options?: Record<string, unknown>,
  ) => Promise<{ modifiedCount: number }>
  findOne: (filter: Record<string, unknown>) => {
    lean: () => Promise<Record<string, unknown> | null>
  }
}

export function mongo(payload: Payload, slug: string): MongoModel {
  const model = (payload.db as unknown as { collections: Record<string, MongoModel> }).collections[
    slug
  ]
  if (!model) throw new Error(`No MongoDB model for ${slug}.`)
  return model
}

export const nowIso = () => new Date().toISOString()

/**
 * Stock moved by a sale or an expiry is not an edit of the product: its updatedAt stays. (Payload's
 * admin compares it on an open form and told an owner editing the product, at every sale, that
 * someone had changed it; the Products hook keeps a save right when copies sold meanwhile, and
 * the catalogue's version reads the stock itself.)
 */
