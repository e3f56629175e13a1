import type { InStatement, InValue, ResultSet, Transaction, TransactionMode } from '@libsql/client'
import type { Payload } from 'payload'
import { vi } from 'vitest'

import type { PgConnection } from '../../src/db/engine'
import { engineOf, numbered, postgres, sqlite } from '../../src/db/engine'

/**
 * Raw SQL on a test shop's own database, whichever SQL engine it runs on (SQLite, or PostgreSQL
 * with `TEST_DB_ENGINE=postgres`), for what a test must do beneath Payload: write a row as an
 * older version of the shop left it, make the database refuse a write, or watch the statements
 * the shop's own SQL code runs (`cms/src/db/`).
 */

export type SqlRow = Record<string, unknown>

const sqlOf = (stmt: InStatement | string): string => (typeof stmt === 'string' ? stmt : stmt.sql)

/** node-postgres takes a statement's text, or a config holding it (drizzle's). */
const pgTextOf = (query: unknown): string =>
  typeof query === 'string' ? query : String((query as { text?: unknown } | null)?.text)

/**
 * One statement, written with `?` placeholders as the shop's own statements are (numbered for
 * PostgreSQL), committed on its own; its rows as plain objects keyed by column. The values are
 * each engine's own: SQLite's 0/1 and ISO text, PostgreSQL's booleans, Dates and numeric columns
 * as strings.
 */
export async function runSql(
  payload: Payload,
  sql: string,
  args: InValue[] = [],
): Promise<SqlRow[]> {
  const engine = engineOf(payload)
  if (engine === 'postgres') return (await postgres(payload).query(numbered(sql), args)).rows
  if (engine !== 'sqlite') throw new Error(`No raw SQL on ${engine}.`)
  const result = await sqlite(payload).execute({ sql, args })
  return result.rows.map((row) => Object.fromEntries(result.columns.map((c) => [c, row[c]])))
}

export type RefusedWrites = {
  /** The trigger's name (also its function's on PostgreSQL). */
  name: string
  table: string
  before: 'INSERT' | 'UPDATE'
  /**
   * Which rows are refused: a condition on NEW (and OLD for an update) that both engines read,
   * `IS DISTINCT FROM` for a comparison that holds NULLs.
   */
  when: string
  /** The database's reason, as its error message. */
  message: string
}

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`

/**
 * Makes the database refuse the writes a trigger selects, as it refuses a row that breaks one of
 * its own rules: every such INSERT or UPDATE fails with `message`, whoever makes it. Answers a
 * function that removes the trigger.
 */
export async function refuseWrites(
  payload: Payload,
  { name, table, before, when, message }: RefusedWrites,
): Promise<() => Promise<void>> {
  if (engineOf(payload) === 'postgres') {
    await runSql(
      payload,
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION ${literal(message)}; END $$`,
    )
    await runSql(
      payload,
      `CREATE TRIGGER ${name} BEFORE ${before} ON ${table}
         FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION ${name}()`,
    )
    return async () => {
      await runSql(payload, `DROP TRIGGER IF EXISTS ${name} ON ${table}`)
      await runSql(payload, `DROP FUNCTION IF EXISTS ${name}()`)
    }
  }
  await runSql(
    payload,
    `CREATE TRIGGER ${name} BEFORE ${before} ON ${table} WHEN ${when}
       BEGIN SELECT RAISE(ABORT, ${literal(message)}); END`,
  )
  return async () => void (await runSql(payload, `DROP TRIGGER IF EXISTS ${name}`))
}

/**
 * Watches the statements the shop runs outside any transaction of its own (SQLite's client
 * `execute`, PostgreSQL's pool `query`: checkout's reads, Payload's own queries), in the order
 * they are sent; `seen` hears each one as it goes. `restore` ends the watch.
 */
export function watchStatements(
  payload: Payload,
  seen?: (sql: string) => void,
): { statements: string[]; restore: () => void } {
  const statements: string[] = []
  const note = (sql: string) => {
    statements.push(sql)
    seen?.(sql)
  }
  if (engineOf(payload) === 'postgres') {
    const pool = postgres(payload)
    const query = pool.query
    const spy = vi.spyOn(pool, 'query').mockImplementation(function (
      this: unknown,
      ...args: unknown[]
    ) {
      note(pgTextOf(args[0]))
      return (query as (...a: unknown[]) => ReturnType<typeof query>).apply(pool, args)
    })
    return { statements, restore: () => spy.mockRestore() }
  }
  const client = sqlite(payload)
  const execute = client.execute as (...args: unknown[]) => Promise<ResultSet>
  const spy = vi.spyOn(client, 'execute').mockImplementation((...args: unknown[]) => {
    note(sqlOf(args[0] as InStatement))
    return execute.apply(client, args)
  })
  return { statements, restore: () => spy.mockRestore() }
}

export type OwnTransactions = {
  /** The transactions asked for since the watch began. */
  readonly count: number
  /** Every statement run inside them, in order. */
  readonly statements: string[]
  restore: () => void
}

/**
 * Watches the transactions the shop's SQL code opens for a write of its own (checkout's store of
 * new orders): on SQLite the client's `transaction('write')`, one for each group of checkouts
 * written together (Payload's own ask for no mode and go unseen); on PostgreSQL a connection
 * taken from the pool for a transaction, one for each group (`pool.connect()`, which
 * Payload's own transactions call too; the pool's own queries take theirs with a callback and go
 * unseen). `gate`, when given, is awaited before each one begins (0 for the first asked for, 1
 * for the next...); its rejection refuses that transaction with its error, as a database that
 * cannot begin one would.
 */
export function watchOwnTransactions(
  payload: Payload,
  gate?: (nth: number) => Promise<void>,
): OwnTransactions {
  let count = 0
  const statements: string[] = []
  const asked = async () => {
    const nth = count
    count += 1
    await gate?.(nth)
  }
  let restore: () => void
  if (engineOf(payload) === 'postgres') {
    const pool = postgres(payload)
    const connect = pool.connect
    const spy = vi.spyOn(pool, 'connect').mockImplementation(function (
      this: unknown,
      ...args: unknown[]
    ) {
      // The pool's own query takes a connection with a callback: not one of ours.
      if (args.length > 0) return (connect as (...a: unknown[]) => never).apply(pool, args)
      return (async () => {
        await asked()
        const connection = await connect.call(pool)
        // The pool's connection itself stays as it is (it goes back to the pool for others).
        return new Proxy(connection, {
          get(target, property) {
            if (property === 'query')
              return (...args: unknown[]) => {
                statements.push(pgTextOf(args[0]))
                return (target.query as (...a: unknown[]) => unknown).apply(target, args)
              }
            const value = Reflect.get(target, property, target) as unknown
            return typeof value === 'function' ? (value as () => unknown).bind(target) : value
          },
        }) as PgConnection
      })()
    })
    restore = () => spy.mockRestore()
  } else {
    const client = sqlite(payload)
    const transaction = client.transaction.bind(client)
    const spy = vi
      .spyOn(client, 'transaction')
      .mockImplementation(async (mode?: TransactionMode) => {
        if (mode !== 'write') return transaction(mode)
        await asked()
        const tx: Transaction = await transaction(mode)
        const execute = tx.execute.bind(tx)
        const batch = tx.batch.bind(tx)
        tx.execute = ((stmt: InStatement) => {
          statements.push(sqlOf(stmt))
          return execute(stmt)
        }) as typeof tx.execute
        tx.batch = (stmts: InStatement[]) => {
          statements.push(...stmts.map(sqlOf))
          return batch(stmts)
        }
        return tx
      })
    restore = () => spy.mockRestore()
  }
  return {
    get count() {
      return count
    },
    statements,
    restore,
  }
}
