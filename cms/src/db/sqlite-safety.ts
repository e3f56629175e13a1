import type { Client, Transaction, TransactionMode } from '@libsql/client'
import Database from 'libsql'

/**
 * Fixes for libsql's local client, which Payload's SQLite adapter uses:
 *
 * 1. After each `transaction()` libsql opens a fresh connection for the next statement, and that
 *    connection has busy_timeout 0 (a known libsql bug): writes from another process then fail
 *    at once with SQLITE_BUSY. The PRAGMA is re-applied synchronously on the new connection.
 * 2. libsql runs statements synchronously, so a write that waits on SQLite's lock blocks the
 *    event loop. Two overlapping write transactions in ONE process therefore deadlock: the second
 *    BEGIN IMMEDIATE waits (synchronously) for a lock the first can never release. Writers in
 *    this process take turns through an async queue instead; SQLite's busy timeout then only
 *    ever waits for other processes.
 */

const HARDENED = Symbol.for('shop.sqliteHardened')
const CACHING = Symbol.for('shop.sqliteStatementCache')

/** Prepared statements kept per connection (distinct SQL texts; the oldest unused goes first). */
const STATEMENTS_PER_CONNECTION = 500

/**
 * 3. libsql never frees a prepared statement (tursodatabase/libsql-js#153: about 6 KB of native
 *    memory each, not even when the connection closes), and @libsql/client prepares one for
 *    every query, so a busy process grew by gigabytes. Statements are cached per connection by
 *    SQL text instead: libsql runs them synchronously, so a cached statement is never in use
 *    twice at once, and every use binds its own arguments.
 */
export function cachePreparedStatements(): void {
  const proto = Database.prototype as unknown as {
    prepare: (this: object, sql: string) => unknown
    [CACHING]?: true
  }
  if (proto[CACHING]) return
  proto[CACHING] = true
  const prepare = proto.prepare
  const caches = new WeakMap<object, Map<string, unknown>>()
  proto.prepare = function cachedPrepare(this: object, sql: string) {
    let cache = caches.get(this)
    if (!cache) {
      cache = new Map()
      caches.set(this, cache)
    }
    const cached = cache.get(sql)
    if (cached) {
      cache.delete(sql)
      cache.set(sql, cached)
      return cached
    }
    const statement = prepare.call(this, sql)
    if (cache.size >= STATEMENTS_PER_CONNECTION) cache.delete(cache.keys().next().value!)
    cache.set(sql, statement)
    return statement
  }
}

type WriteQueue = {
  /** Resolves with a release function once this caller may write. */
  acquire: () => Promise<() => void>
}

function createWriteQueue(maxWaitMs: number): WriteQueue {
  let tail: Promise<void> = Promise.resolve()
  return {
    acquire() {
      let release!: () => void
      const mine = new Promise<void>((resolve) => {
        release = resolve
      })
      const previous = tail
      tail = previous.then(() => mine)
      // A writer that never releases (a bug elsewhere) must not stop the process for good: after
      // maxWaitMs the next writer goes ahead and SQLite's own busy handling decides.
      // The timer is deliberately not unref'd: while a writer waits, the process must stay alive
      // (an unref'd timer let a starting process with nothing else pending exit silently).
      let timer: NodeJS.Timeout | undefined
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          console.warn(
            `[db] a SQLite writer waited ${maxWaitMs} ms for the write queue; going ahead`,
          )
          resolve()
        }, maxWaitMs)
      })
      return Promise.race([previous, waited]).then(() => {
        clearTimeout(timer)
        let done = false
        return () => {
          if (done) return
          done = true
          release()
        }
      })
    },
  }
}

const READ_ONLY = /^\s*(select|pragma|explain|with\s[\s\S]*?\)\s*select)\b/i

function statementText(stmt: unknown): string {
  if (typeof stmt === 'string') return stmt
  if (stmt && typeof stmt === 'object' && 'sql' in stmt)
    return String((stmt as { sql: unknown }).sql)
  return ''
}

export type HardenedClient = Client & { [HARDENED]?: WriteQueue }

/** Wraps the client once; later calls return the same queue. */
export function hardenSqliteClient(client: Client, busyTimeoutMs: number): WriteQueue {
  const hardened = client as HardenedClient
  if (hardened[HARDENED]) return hardened[HARDENED]
  const queue = createWriteQueue(busyTimeoutMs * 3)
  const pragma = `PRAGMA busy_timeout = ${busyTimeoutMs}`

  const execute = client.execute.bind(client)
  const batch = client.batch.bind(client)
  const executeMultiple = client.executeMultiple.bind(client)
  const migrate = client.migrate.bind(client)
  const transaction = client.transaction.bind(client)

  const serialized = async <T>(run: () => Promise<T>): Promise<T> => {
    const release = await queue.acquire()
    try {
      return await run()
    } finally {
      release()
    }
  }

  const run = execute as (stmt: unknown, args?: unknown) => ReturnType<Client['execute']>
  client.execute = ((stmt: unknown, args?: unknown) => {
    if (READ_ONLY.test(statementText(stmt))) return run(stmt, args)
    return serialized(() => run(stmt, args))
  }) as Client['execute']
  client.batch = ((stmts, mode) => serialized(() => batch(stmts, mode))) as Client['batch']
  client.executeMultiple = ((sql: string) =>
    serialized(() => executeMultiple(sql))) as Client['executeMultiple']
  client.migrate = ((stmts) => serialized(() => migrate(stmts))) as Client['migrate']

  client.transaction = (async (mode?: TransactionMode) => {
    const release = await queue.acquire()
    let tx: Transaction
    try {
      // The original body runs synchronously: BEGIN on the current connection, then libsql
      // drops it; the next execute opens the fresh connection, which gets the PRAGMA at once.
      const pending = transaction(mode)
      void execute(pragma)
      tx = await pending
    } catch (error) {
      release()
      throw error
    }
    const commit = tx.commit.bind(tx)
    const rollback = tx.rollback.bind(tx)
    const close = tx.close.bind(tx)
    tx.commit = async () => {
      try {
        await commit()
      } finally {
        if (tx.closed) release()
      }
    }
    tx.rollback = async () => {
      try {
        await rollback()
      } finally {
        release()
      }
    }
    tx.close = () => {
      try {
        close()
      } finally {
        release()
      }
    }
    return tx
  }) as Client['transaction']

  hardened[HARDENED] = queue
  return queue
}

/** The queue of a hardened client (for the atomic primitives that write with raw SQL). */
export function writeQueueOf(client: Client): WriteQueue | undefined {
  return (client as HardenedClient)[HARDENED]
}
