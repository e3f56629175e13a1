import {
  LibsqlError,
  type Client,
  type InArgs,
  type InStatement,
  type InValue,
  type Replicated,
  type ResultSet,
  type Row,
  type Transaction,
  type TransactionMode,
} from '@libsql/client'
import Database from 'libsql'
import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * The SQLite client Payload's adapter runs on: the `Client` interface of `@libsql/client`, over
 * libsql connections that live as long as the process. It exists because of what libsql and its
 * client do to a busy shop (decision 005):
 *
 * 1. libsql never frees a prepared statement (about 6 KB each; tursodatabase/libsql-js#153) and
 *    `@libsql/client` prepares one per query and opens a fresh connection after every
 *    transaction. Here each connection keeps its statements, keyed by SQL text, and connections
 *    are kept: one for statements outside transactions, and a small pool for transactions.
 * 2. A fresh libsql connection has busy_timeout 0, so a write from the other process failed at
 *    once with SQLITE_BUSY. Every connection here gets the busy timeout when it opens.
 * 3. libsql runs statements synchronously, so a write that waits on SQLite's lock blocks the
 *    event loop: two overlapping write transactions in ONE process would deadlock (the second
 *    BEGIN IMMEDIATE waits for a lock the first can never release). Writers in this process take
 *    turns through an async queue instead; SQLite's busy timeout then only waits for the other
 *    process.
 *
 * Reads outside a transaction run at once on the main connection, so they never see a
 * transaction's uncommitted writes.
 *
 * 4. Payload opens a transaction at the start of most operations and then, in some of them,
 *    writes outside it on purpose (forgot-password's request stamp, login attempt counters) or
 *    through a nested Local API call without `req`. Holding the write queue from BEGIN would make
 *    such a write wait for a transaction that is waiting for it: the process would deadlock
 *    (decision 008). So a transaction takes the queue and its lock only at its first statement
 *    (lazily), and within one writer scope (one HTTP request, one worker step: see
 *    `runInWriterScope`) a write made while that scope's own transaction holds the lock joins
 *    that transaction under a savepoint instead of waiting for it.
 */

export type SqliteClientOptions = {
  /** Path of the database file. */
  path: string
  busyTimeoutMs: number
}

/** Prepared statements kept per connection (distinct SQL texts; the oldest unused goes first). */
const STATEMENTS_PER_CONNECTION = 500
/** Transaction connections kept open between transactions. */
const IDLE_TRANSACTION_CONNECTIONS = 2
/** WAL journal size limit in bytes (Payload's default). */
const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024

const READ_ONLY = /^\s*(select|pragma|explain|with\s[\s\S]*?\)\s*select)\b/i

/**
 * A turn of the event loop that has run statements for this long lets the loop run before its
 * next one. libsql answers synchronously, so a loop of awaited statements (the worker taking up
 * a rush of thousands of orders, their e-mails queued one by one) is one chain of microtasks:
 * no timer, socket or lease renewal ran until it ended (21 s in the benchmark, the lease lost).
 */
const TURN_MS = 20
let turn: { startedAt: number } | null = null

/**
 * A promise to await before the next statement when this turn has run long enough. Never inside
 * a transaction of the caller's writer scope: a write of another task of that scope would join
 * the transaction meanwhile (see `runInWriterScope`), and roll back with it.
 */
function endOfLongTurn(): Promise<void> | undefined {
  const now = performance.now()
  if (!turn) {
    const current = { startedAt: now }
    turn = current
    // Runs once the loop gets its turn: the chain of statements has ended by then.
    setImmediate(() => {
      if (turn === current) turn = null
    })
    return undefined
  }
  if (now - turn.startedAt < TURN_MS) return undefined
  turn = null
  return new Promise((resolve) => setImmediate(resolve))
}

type Statement = {
  reader: boolean
  raw: (toggle?: boolean) => Statement
  safeIntegers: (toggle?: boolean) => Statement
  columns: () => { name: string; type: string | null }[]
  all: (args: unknown) => unknown[][]
  run: (args: unknown) => { changes: number; lastInsertRowid: number | bigint }
}

type Connection = {
  db: Database.Database
  statements: Map<string, Statement>
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

/** One request or worker step: the transaction it has started, if any (see the class comment). */
type WriterScope = { holder: ShopSqliteTransaction | null }

const writerScopes = new AsyncLocalStorage<WriterScope>()

/**
 * Runs `fn` as one writer scope: a write it makes while a transaction it started holds the
 * SQLite write lock joins that transaction instead of deadlocking on it. The express app wraps
 * each request in one; the payment worker each step.
 */
export function runInWriterScope<T>(fn: () => T): T {
  return writerScopes.run({ holder: null }, fn)
}

/** The transaction that this scope has started and that is still open, if any. */
function scopeHolder(): ShopSqliteTransaction | null {
  const holder = writerScopes.getStore()?.holder ?? null
  return holder && !holder.closed ? holder : null
}

let savepoints = 0

/** Runs `run` on the holder's connection under a savepoint: atomic within its transaction. */
function joined<T>(holder: ShopSqliteTransaction, run: (conn: Connection) => T): T {
  const conn = holder.connection!
  const name = `shop_joined_${(savepoints += 1)}`
  executeOn(conn, `SAVEPOINT ${name}`)
  try {
    const result = run(conn)
    executeOn(conn, `RELEASE ${name}`)
    return result
  } catch (error) {
    if (conn.db.inTransaction) {
      executeOn(conn, `ROLLBACK TO ${name}`)
      executeOn(conn, `RELEASE ${name}`)
    }
    throw error
  }
}

function sqlOf(stmt: InStatement): string {
  return typeof stmt === 'string' ? stmt : stmt.sql
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER)
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)
const MIN_INT64 = -(2n ** 63n)
const MAX_INT64 = 2n ** 63n - 1n

function valueToSql(value: InValue): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new RangeError('Only finite numbers (not Infinity or NaN) can be passed as arguments')
    return value
  }
  if (typeof value === 'bigint') {
    if (value < MIN_INT64 || value > MAX_INT64)
      throw new RangeError('bigint is too large to be represented as a 64-bit integer')
    return value
  }
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value instanceof ArrayBuffer) return Buffer.from(value)
  if (value instanceof Date) return value.valueOf()
  if (value === undefined)
    throw new TypeError('undefined cannot be passed as argument to the database')
  return value
}

function valueFromSql(value: unknown): unknown {
  if (typeof value === 'bigint') {
    if (value < MIN_SAFE || value > MAX_SAFE)
      throw new RangeError(
        'Received integer which cannot be safely represented as a JavaScript number',
      )
    return Number(value)
  }
  if (value instanceof Buffer)
    return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength)
  return value
}

/** libsql panics (and aborts the process) on an empty named-arguments object; never send one. */
function argsToSql(args: InArgs | undefined): unknown {
  if (args === undefined) return []
  if (Array.isArray(args)) return args.map(valueToSql)
  const named: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(args)) {
    const key = name[0] === '@' || name[0] === '$' || name[0] === ':' ? name.slice(1) : name
    named[key] = valueToSql(value)
  }
  return Object.keys(named).length === 0 ? [] : named
}

/** A row as @libsql/client makes it: indexable by position and, enumerably, by column name. */
function rowFromSql(values: unknown[], columns: string[]): Row {
  const row = {} as Row
  Object.defineProperty(row, 'length', { value: values.length })
  for (let i = 0; i < values.length; i += 1) {
    const value = valueFromSql(values[i])
    Object.defineProperty(row, i, { value })
    const column = columns[i]!
    if (!Object.hasOwn(row, column))
      Object.defineProperty(row, column, {
        value,
        enumerable: true,
        configurable: true,
        writable: true,
      })
  }
  return row
}

function resultSet(
  columns: string[],
  columnTypes: string[],
  rows: Row[],
  rowsAffected: number,
  lastInsertRowid: bigint | undefined,
): ResultSet {
  return {
    columns,
    columnTypes,
    rows,
    rowsAffected,
    lastInsertRowid,
    toJSON() {
      return {
        columns,
        columnTypes,
        rows: rows.map((row) => columns.map((_, i) => row[i])),
        rowsAffected,
        lastInsertRowid: lastInsertRowid === undefined ? null : String(lastInsertRowid),
      }
    },
  }
}

function mapError(error: unknown): unknown {
  if (error instanceof Database.SqliteError) {
    const e = error as Error & { code: string; rawCode?: number }
    return new LibsqlError(e.message, e.code, e.rawCode, e)
  }
  return error
}

function prepare(conn: Connection, sql: string): Statement {
  const cached = conn.statements.get(sql)
  if (cached) {
    // Most recently used last, so the first key is the one to drop.
    conn.statements.delete(sql)
    conn.statements.set(sql, cached)
    return cached
  }
  const statement = conn.db.prepare(sql) as unknown as Statement
  if (statement.reader) statement.raw(true)
  statement.safeIntegers(true)
  if (conn.statements.size >= STATEMENTS_PER_CONNECTION)
    conn.statements.delete(conn.statements.keys().next().value!)
  conn.statements.set(sql, statement)
  return statement
}

function executeOn(conn: Connection, stmt: InStatement, extraArgs?: InArgs): ResultSet {
  try {
    const sql = sqlOf(stmt)
    const args = argsToSql(typeof stmt === 'string' ? extraArgs : stmt.args)
    const statement = prepare(conn, sql)
    if (statement.reader) {
      const described = statement.columns()
      const columns = described.map((c) => c.name)
      const columnTypes = described.map((c) => c.type ?? '')
      const rows = statement.all(args).map((values) => rowFromSql(values, columns))
      return resultSet(columns, columnTypes, rows, 0, undefined)
    }
    const info = statement.run(args)
    return resultSet([], [], [], info.changes, BigInt(info.lastInsertRowid))
  } catch (error) {
    throw mapError(error)
  }
}

function execOn(conn: Connection, sql: string): void {
  try {
    conn.db.exec(sql)
  } catch (error) {
    throw mapError(error)
  }
}

function begin(mode: TransactionMode): string {
  if (mode === 'write') return 'BEGIN IMMEDIATE'
  if (mode === 'read' || mode === 'deferred') return 'BEGIN DEFERRED'
  throw new RangeError(
    'Unknown transaction mode, supported values are "write", "read" and "deferred"',
  )
}

/** The longest pause between two tries for SQLite's write lock (they start at 1 ms). */
const LOCK_RETRY_MAX_PAUSE_MS = 4

const isBusy = (error: unknown) =>
  error instanceof LibsqlError && String(error.code).startsWith('SQLITE_BUSY')

/**
 * Begins a write transaction on `conn` (BEGIN IMMEDIATE) without stopping the event loop while
 * the other process holds SQLite's write lock. SQLite's own busy timeout waits inside the
 * statement, sleeping 1, 2, 5, 10... ms at a time, and libsql runs statements synchronously: a
 * web process whose checkout meets the worker's write would serve nobody until the lock came
 * free (under a rush, half of its time would go to waiting in libsql). Here each try runs with
 * no busy timeout, and a busy answer waits a millisecond or a few on a timer, so the process goes
 * on with its other requests, until `timeoutMs`; then the SQLITE_BUSY is thrown, as before.
 */
async function beginWrite(conn: Connection, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (let pause = 1; ; pause = Math.min(pause * 2, LOCK_RETRY_MAX_PAUSE_MS)) {
    executeOn(conn, 'PRAGMA busy_timeout = 0')
    try {
      executeOn(conn, 'BEGIN IMMEDIATE')
      return
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error
    } finally {
      executeOn(conn, `PRAGMA busy_timeout = ${timeoutMs}`)
    }
    await new Promise((resolve) => setTimeout(resolve, pause))
  }
}

function rollbackIfOpen(conn: Connection): void {
  if (conn.db.inTransaction) executeOn(conn, 'ROLLBACK')
}

/** Runs statements in one transaction on a connection, synchronously (nothing can interleave). */
function runInTransaction(
  conn: Connection,
  mode: TransactionMode,
  stmts: InStatement[],
): ResultSet[] {
  try {
    executeOn(conn, begin(mode))
    const results = stmts.map((stmt) => {
      if (!conn.db.inTransaction)
        throw new LibsqlError('The transaction has been rolled back', 'TRANSACTION_CLOSED')
      return executeOn(conn, stmt)
    })
    executeOn(conn, 'COMMIT')
    return results
  } finally {
    rollbackIfOpen(conn)
  }
}

/** How a transaction gets its connection at its first statement. */
type Begin = () => Promise<{ conn: Connection; finish: () => void }>

/**
 * A transaction that takes the write queue and SQLite's lock at its first statement, not when
 * it is opened (see the class comment of the client, point 4). Inside a writer scope whose own
 * transaction already holds the lock, it runs as a savepoint of that transaction.
 */
class ShopSqliteTransaction implements Transaction {
  #begin: Begin
  #conn: Connection | null = null
  #finish: () => void = () => {}
  #starting: Promise<void> | null = null
  /** Set when this transaction runs inside another one of the same scope. */
  #savepoint: string | null = null
  #done = false

  constructor(begin: Begin) {
    this.#begin = begin
  }

  /** The connection it runs on, once started. */
  get connection(): Connection | null {
    return this.#conn
  }

  get closed(): boolean {
    return this.#done || (this.#conn !== null && !this.#conn.db.inTransaction)
  }

  #checkOpen(): void {
    if (this.closed) throw new LibsqlError('The transaction is closed', 'TRANSACTION_CLOSED')
  }

  async #started(): Promise<Connection> {
    this.#checkOpen()
    if (this.#conn) return this.#conn
    this.#starting ??= this.#start()
    await this.#starting
    this.#checkOpen()
    return this.#conn!
  }

  async #start(): Promise<void> {
    const scope = writerScopes.getStore()
    const holder = scopeHolder()
    if (holder && holder !== this && holder.connection) {
      const name = `shop_nested_${(savepoints += 1)}`
      executeOn(holder.connection, `SAVEPOINT ${name}`)
      this.#conn = holder.connection
      this.#savepoint = name
      return
    }
    const { conn, finish } = await this.#begin()
    this.#conn = conn
    this.#finish = finish
    if (scope && !scopeHolder()) scope.holder = this
  }

  async execute(stmt: InStatement, args?: InArgs): Promise<ResultSet> {
    const conn = await this.#started()
    return executeOn(conn, stmt, args)
  }

  async batch(stmts: InStatement[]): Promise<ResultSet[]> {
    const conn = await this.#started()
    return stmts.map((stmt) => {
      this.#checkOpen()
      return executeOn(conn, stmt)
    })
  }

  async executeMultiple(sql: string): Promise<void> {
    const conn = await this.#started()
    execOn(conn, sql)
  }

  async commit(): Promise<void> {
    if (this.#done) throw new LibsqlError('The transaction is closed', 'TRANSACTION_CLOSED')
    if (this.#starting) await this.#starting
    if (!this.#conn) {
      // Never started: nothing to commit.
      this.close()
      return
    }
    this.#checkOpen()
    // A failed COMMIT leaves the transaction open for the caller's rollback.
    if (this.#savepoint) {
      executeOn(this.#conn, `RELEASE ${this.#savepoint}`)
      this.#done = true // released into the transaction it ran in: nothing left to close
      return
    }
    executeOn(this.#conn, 'COMMIT')
    this.close()
  }

  async rollback(): Promise<void> {
    if (this.#starting) await this.#starting.catch(() => {})
    this.close()
  }

  /** Rolls back what is not committed and hands the connection back; safe to call twice. */
  close(): void {
    if (this.#done) return
    this.#done = true
    const conn = this.#conn
    if (!conn) return
    if (this.#savepoint) {
      if (conn.db.inTransaction) {
        executeOn(conn, `ROLLBACK TO ${this.#savepoint}`)
        executeOn(conn, `RELEASE ${this.#savepoint}`)
      }
      return
    }
    try {
      rollbackIfOpen(conn)
    } finally {
      this.#finish()
    }
  }
}

/** Whether a transaction of this client has begun (holds the write lock); false for others. */
export function hasBegun(tx: unknown): boolean {
  return tx instanceof ShopSqliteTransaction && tx.connection !== null && !tx.closed
}

export class ShopSqliteClient implements Client {
  closed = false
  protocol = 'file'
  #writeQueue: WriteQueue
  #options: SqliteClientOptions
  #main: Connection | null = null
  #idle: Connection[] = []
  #opened = 0

  constructor(options: SqliteClientOptions) {
    this.#options = options
    this.#writeQueue = createWriteQueue(options.busyTimeoutMs * 3)
    // Open now, so a bad path fails at start-up rather than on the first query.
    this.#mainConnection()
  }

  /** Connections opened so far (each keeps its prepared statements; see the class comment). */
  get connectionsOpened(): number {
    return this.#opened
  }

  #open(): Connection {
    const db = new Database(this.#options.path)
    const conn: Connection = { db, statements: new Map() }
    try {
      executeOn(conn, `PRAGMA busy_timeout = ${this.#options.busyTimeoutMs}`)
      if (this.#opened === 0) {
        const mode = executeOn(conn, 'PRAGMA journal_mode').rows[0]?.[0]
        if (mode !== 'wal') executeOn(conn, 'PRAGMA journal_mode = WAL')
      }
      executeOn(conn, `PRAGMA journal_size_limit = ${JOURNAL_SIZE_LIMIT}`)
      executeOn(conn, 'PRAGMA synchronous = FULL')
    } catch (error) {
      db.close()
      throw error
    }
    this.#opened += 1
    return conn
  }

  #checkNotClosed(): void {
    if (this.closed) throw new LibsqlError('The client is closed', 'CLIENT_CLOSED')
  }

  #mainConnection(): Connection {
    this.#checkNotClosed()
    this.#main ??= this.#open()
    return this.#main
  }

  async #serialized<T>(run: () => T | Promise<T>): Promise<T> {
    const release = await this.#writeQueue.acquire()
    try {
      return await run()
    } finally {
      release()
    }
  }

  /**
   * Runs `run` on the main connection in one write transaction, its lock taken without stopping
   * the event loop (beginWrite); what `run` leaves uncommitted by throwing is rolled back.
   */
  #inWriteTransaction<T>(
    conn: Connection,
    run: () => T,
    { durable = true }: { durable?: boolean } = {},
  ): Promise<T> {
    return this.#serialized(async () => {
      // Set before the transaction and put back after its COMMIT, which is where it counts.
      if (!durable) executeOn(conn, 'PRAGMA synchronous = NORMAL')
      try {
        await beginWrite(conn, this.#options.busyTimeoutMs)
        try {
          const result = run()
          executeOn(conn, 'COMMIT')
          return result
        } finally {
          rollbackIfOpen(conn)
        }
      } finally {
        if (!durable) executeOn(conn, 'PRAGMA synchronous = FULL')
      }
    })
  }

  async execute(stmt: InStatement, args?: InArgs): Promise<ResultSet> {
    if (!scopeHolder()) await endOfLongTurn()
    const conn = this.#mainConnection()
    if (READ_ONLY.test(sqlOf(stmt))) return executeOn(conn, stmt, args)
    const holder = scopeHolder()
    if (holder) return joined(holder, (held) => executeOn(held, stmt, args))
    return this.#inWriteTransaction(conn, () => executeOn(conn, stmt, args))
  }

  /**
   * A write whose loss in a power cut harms nobody (rate-limit counters): committed without
   * waiting for the disk (synchronous = NORMAL), so it costs microseconds instead of an fsync
   * that blocks the event loop. Orders, payments and counters never use it. Inside a transaction
   * it simply joins it. The ones made in the same turn of the event loop are written together, in
   * one transaction: each alone takes seven statements (the pragmas, BEGIN, itself, COMMIT), and
   * under a rush, where every checkout counts one, they would be most of SQLite's calls.
   * Each statement still succeeds or fails alone (SQLite undoes a failed statement, not the
   * transaction).
   */
  async executeWithoutSync(stmt: InStatement): Promise<ResultSet> {
    const holder = scopeHolder()
    if (holder) return joined(holder, (held) => executeOn(held, stmt))
    return new Promise<ResultSet>((resolve, reject) => {
      if (!this.#unsynced) {
        this.#unsynced = []
        setImmediate(() => this.#writeUnsynced())
      }
      this.#unsynced.push({ stmt, resolve, reject })
    })
  }

  #unsynced?: {
    stmt: InStatement
    resolve: (rs: ResultSet) => void
    reject: (e: unknown) => void
  }[]

  #writeUnsynced(): void {
    const waiting = this.#unsynced ?? []
    this.#unsynced = undefined
    let conn: Connection
    try {
      conn = this.#mainConnection()
    } catch (error) {
      for (const { reject } of waiting) reject(error)
      return
    }
    this.#inWriteTransaction(
      conn,
      () =>
        waiting.map(({ stmt }): { done: ResultSet } | { error: unknown } => {
          try {
            return { done: executeOn(conn, stmt) }
          } catch (error) {
            return { error }
          }
        }),
      { durable: false },
    ).then(
      (outcomes) =>
        outcomes.forEach((outcome, i) => {
          if ('done' in outcome) waiting[i]!.resolve(outcome.done)
          else waiting[i]!.reject(outcome.error)
        }),
      (error: unknown) => {
        for (const { reject } of waiting) reject(error)
      },
    )
  }

  async batch(stmts: InStatement[], mode: TransactionMode = 'deferred'): Promise<ResultSet[]> {
    if (!scopeHolder()) await endOfLongTurn()
    const conn = this.#mainConnection()
    const holder = scopeHolder()
    if (holder) return joined(holder, (held) => stmts.map((stmt) => executeOn(held, stmt)))
    if (mode === 'read') return this.#serialized(() => runInTransaction(conn, mode, stmts))
    return this.#inWriteTransaction(conn, () =>
      stmts.map((stmt) => {
        if (!conn.db.inTransaction)
          throw new LibsqlError('The transaction has been rolled back', 'TRANSACTION_CLOSED')
        return executeOn(conn, stmt)
      }),
    )
  }

  async migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    const conn = this.#mainConnection()
    return this.#serialized(() => {
      executeOn(conn, 'PRAGMA foreign_keys=off')
      try {
        return runInTransaction(conn, 'deferred', stmts)
      } finally {
        executeOn(conn, 'PRAGMA foreign_keys=on')
      }
    })
  }

  async executeMultiple(sql: string): Promise<void> {
    const conn = this.#mainConnection()
    const holder = scopeHolder()
    if (holder) return joined(holder, (held) => execOn(held, sql))
    return this.#serialized(() => {
      try {
        execOn(conn, sql)
      } finally {
        rollbackIfOpen(conn)
      }
    })
  }

  async transaction(mode: TransactionMode = 'write'): Promise<Transaction> {
    if (!scopeHolder()) await endOfLongTurn()
    this.#checkNotClosed()
    begin(mode) // an unknown mode fails here, as with @libsql/client
    return new ShopSqliteTransaction(async () => {
      this.#checkNotClosed()
      const release = await this.#writeQueue.acquire()
      let conn: Connection | undefined
      try {
        conn = this.#idle.pop() ?? this.#open()
        if (mode === 'write') await beginWrite(conn, this.#options.busyTimeoutMs)
        else executeOn(conn, begin(mode))
      } catch (error) {
        if (conn) this.#handBack(conn)
        release()
        throw error
      }
      const taken = conn
      return {
        conn: taken,
        finish: () => {
          this.#handBack(taken)
          release()
        },
      }
    })
  }

  #handBack(conn: Connection): void {
    if (!this.closed && this.#idle.length < IDLE_TRANSACTION_CONNECTIONS) this.#idle.push(conn)
    else conn.db.close()
  }

  async sync(): Promise<Replicated> {
    throw new LibsqlError(
      'sync() needs a replicated database; this one is a local file',
      'SYNC_NOT_SUPPORTED',
    )
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.#main?.db.close()
    this.#main = null
    for (const conn of this.#idle.splice(0)) conn.db.close()
  }
}

export function createShopSqliteClient(options: SqliteClientOptions): ShopSqliteClient {
  return new ShopSqliteClient(options)
}
