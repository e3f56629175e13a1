import type { Client, InStatement, ResultSet, TransactionMode } from '@libsql/client'
import type { Payload, PayloadRequest } from 'payload'

import { hasBegun } from './sqlite-client'

/**
 * The few writes that must be atomic under concurrency (two web processes, the worker), one
 * function each, with one implementation per database engine: a single conditional
 * `UPDATE ... RETURNING` (or a row lock) on SQLite and PostgreSQL, a conditional
 * `updateOne`/`findOneAndUpdate` on MongoDB. Everything else goes through Payload's Local API.
 */

export type Engine = 'sqlite' | 'postgres' | 'mongodb'

export function engineOf(payload: Payload): Engine {
  const name = payload.db.name
  if (name === 'mongoose') return 'mongodb'
  if (name === 'postgres') return 'postgres'
  return 'sqlite'
}

/** A PostgreSQL answer, as node-postgres shapes it (numeric columns come as strings). */
export type PgResult = { rows: Record<string, unknown>[]; rowCount: number | null }

/** Where PostgreSQL statements run: Payload's pool, or one connection inside a transaction. */
export type PgRunner = { query: (text: string, values?: unknown[]) => Promise<PgResult> }

/** A pool's connection, held for a transaction of our own and given back with `release`. */
export type PgConnection = PgRunner & { release: (error?: Error | boolean) => void }

export type PgPool = PgRunner & { connect: () => Promise<PgConnection> }

/** Payload's PostgreSQL pool (node-postgres), shared with its own queries. */
export function postgres(payload: Payload): PgPool {
  const pool = (payload.db as unknown as { pool?: PgPool }).pool
  if (!pool) throw new Error('The PostgreSQL pool is not connected.')
  return pool
}

/**
 * Where a statement of this module runs on PostgreSQL: on the connection of the request's open
 * transaction when it has one (drizzle's transaction keeps it as `session.client`), otherwise on
 * the pool, committing on its own.
 */
export async function postgresFor(
  payload: Payload,
  req?: Partial<PayloadRequest>,
): Promise<PgRunner> {
  const session = (await sessionOf(payload, req)) as
    { db?: { session?: { client?: PgRunner } } } | undefined
  const client = session?.db?.session?.client
  return client ?? postgres(payload)
}

/** Each prepared statement's name, by its text. */
const preparedNames = new Map<string, string>()

/**
 * Runs a statement as a named prepared statement: each pooled connection parses and plans it
 * once, then only binds and runs it. For the few statements every checkout sends (its rate
 * limit, its product read), whose planning was a share of PostgreSQL's time under a rush on the
 * two cores it shares with the web process. Its text must not vary with its values.
 */
export function preparedQuery(
  runner: PgRunner,
  text: string,
  values: unknown[],
): Promise<PgResult> {
  let name = preparedNames.get(text)
  if (!name) {
    name = `shop_${preparedNames.size + 1}`
    preparedNames.set(text, name)
  }
  const query = runner.query as unknown as (config: {
    name: string
    text: string
    values: unknown[]
  }) => Promise<PgResult>
  return query.call(runner, { name, text, values })
}

/** Our SQL is written with `?` placeholders (as on SQLite); PostgreSQL numbers them: `$1`... */
export function numbered(sql: string): string {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}

/** A timestamp as PostgreSQL answers it (a Date) or SQLite stores it (ISO text). */
export const dateOf = (value: unknown): Date =>
  value instanceof Date ? value : new Date(String(value))

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

/**
 * Whether the payment worker settles a look's orders in groups, one transaction each: on SQLite
 * and PostgreSQL. On MongoDB (untested here, decision 022) each order is settled on its own.
 */
export const settlesInGroups = (payload: Payload): boolean => engineOf(payload) !== 'mongodb'
