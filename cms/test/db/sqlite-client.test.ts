import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { LibsqlError } from '@libsql/client'
import Database from 'libsql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import {
  createShopSqliteClient,
  runInWriterScope,
  type ShopSqliteClient,
} from '../../src/db/sqlite-client'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-sqlite-client-'))
const file = path.join(dir, 'client.db')
let client: ShopSqliteClient

beforeAll(async () => {
  client = createShopSqliteClient({ path: file, busyTimeoutMs: 2_000 })
  await client.execute(
    'CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, qty INTEGER, data BLOB)',
  )
})

afterAll(() => {
  client.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** Counts libsql's prepare calls while `run` goes (each one is native memory libsql never frees). */
async function preparesDuring(run: () => Promise<void>): Promise<number> {
  const proto = Database.prototype as unknown as { prepare: (sql: string) => unknown }
  const original = proto.prepare
  let count = 0
  proto.prepare = function counted(this: unknown, sql: string) {
    count += 1
    return original.call(this, sql)
  }
  try {
    await run()
  } finally {
    proto.prepare = original
  }
  return count
}

describe('the SQLite client (our Client over long-lived libsql connections)', () => {
  it('answers like @libsql/client: rows by name and position, changes, RETURNING, named arguments', async () => {
    const inserted = await client.execute({
      sql: 'INSERT INTO t (name, qty, data) VALUES (?, ?, ?)',
      args: ['a', 3, new Uint8Array([1, 2, 3]).buffer],
    })
    expect(inserted.rowsAffected).toBe(1)
    expect(typeof inserted.lastInsertRowid).toBe('bigint')

    const returned = await client.execute({
      sql: 'INSERT INTO t (name, qty) VALUES (:name, :qty) RETURNING id, name',
      args: { name: 'b', qty: 5 },
    })
    expect(returned.columns).toEqual(['id', 'name'])
    expect(returned.rows[0]!.name).toBe('b')

    const found = await client.execute({
      sql: 'SELECT name, qty, data FROM t WHERE qty >= ? ORDER BY id',
      args: [1],
    })
    expect(found.columnTypes).toEqual(['TEXT', 'INTEGER', 'BLOB'])
    expect(found.rows.map((row) => [row[0], row.qty])).toEqual([
      ['a', 3],
      ['b', 5],
    ])
    expect(found.rows[0]!.length).toBe(3)
    expect(Object.keys(found.rows[0]!)).toEqual(['name', 'qty', 'data'])
    expect([...new Uint8Array(found.rows[0]!.data as ArrayBuffer)]).toEqual([1, 2, 3])
    expect(Array.prototype.slice.call(found.rows[1])).toEqual(['b', 5, null])
    expect(found.toJSON().rows[1]).toEqual(['b', 5, null])

    // A string statement with no arguments, and an empty named-arguments object (libsql itself
    // aborts the process on that).
    expect((await client.execute('SELECT count(*) AS n FROM t')).rows[0]!.n).toBe(2)
    expect((await client.execute({ sql: 'SELECT 1 AS one', args: {} })).rows[0]!.one).toBe(1)
  })

  it('turns SQLite errors into LibsqlError with the SQLite code, and refuses undefined', async () => {
    const duplicate = client.execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: ['a'] })
    await expect(duplicate).rejects.toBeInstanceOf(LibsqlError)
    await expect(duplicate).rejects.toMatchObject({
      code: expect.stringMatching(/^SQLITE_CONSTRAINT/),
    })
    await expect(client.execute('SELECT nope FROM t')).rejects.toBeInstanceOf(LibsqlError)
    await expect(
      client.execute({ sql: 'SELECT ?', args: [undefined as unknown as null] }),
    ).rejects.toBeInstanceOf(TypeError)
  })

  it('keeps a transaction apart: reads outside it see only committed rows; rollback discards', async () => {
    const tx = await client.transaction('write')
    await tx.execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: ['in-tx'] })
    expect((await tx.execute("SELECT id FROM t WHERE name = 'in-tx'")).rows).toHaveLength(1)
    expect((await client.execute("SELECT id FROM t WHERE name = 'in-tx'")).rows).toHaveLength(0)
    await tx.rollback()
    expect(tx.closed).toBe(true)
    await expect(tx.execute('SELECT 1')).rejects.toMatchObject({ code: 'TRANSACTION_CLOSED' })
    expect((await client.execute("SELECT id FROM t WHERE name = 'in-tx'")).rows).toHaveLength(0)

    const committed = await client.transaction('write')
    await committed.execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: ['kept'] })
    await committed.commit()
    committed.close() // drizzle may also close after commit: a no-op
    expect((await client.execute("SELECT id FROM t WHERE name = 'kept'")).rows).toHaveLength(1)
  })

  it('lets overlapping writers in one process take turns instead of deadlocking', async () => {
    const first = await client.transaction('write')
    await first.execute({ sql: 'UPDATE t SET qty = qty + 1 WHERE name = ?', args: ['a'] })
    const order: string[] = []
    const secondDone = (async () => {
      const second = await client.transaction('write')
      await second.execute({ sql: 'UPDATE t SET qty = qty * 10 WHERE name = ?', args: ['a'] })
      order.push('second wrote')
      await second.commit()
    })()
    const outsideWrite = client
      .execute({ sql: 'UPDATE t SET qty = qty + 100 WHERE name = ?', args: ['b'] })
      .then(() => order.push('outside write'))
    order.push('first commits')
    await first.commit()
    await Promise.all([secondDone, outsideWrite])
    expect(order[0]).toBe('first commits')
    const rows = (
      await client.execute("SELECT name, qty FROM t WHERE name IN ('a', 'b') ORDER BY name")
    ).rows
    expect(rows.map((r) => r.qty)).toEqual([40, 105])
  })

  it("takes the write lock at a transaction's first statement, not when it is opened", async () => {
    const tx = await client.transaction('write')
    // Opened but unused: a write beside it goes through at once (Payload opens transactions
    // early and some of its operations write beside them first).
    await client.execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: ['beside-unused'] })
    await tx.execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: ['in-lazy-tx'] })
    let outsideDone = false
    const outside = client
      .execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: ['after-commit'] })
      .then(() => (outsideDone = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(outsideDone).toBe(false)
    await tx.commit()
    await outside
    const names = (
      await client.execute(
        "SELECT name FROM t WHERE name IN ('beside-unused', 'in-lazy-tx', 'after-commit') ORDER BY id",
      )
    ).rows.map((r) => r.name)
    expect(names).toEqual(['beside-unused', 'in-lazy-tx', 'after-commit'])
    // A transaction never used commits and rolls back as a no-op.
    await (await client.transaction('write')).commit()
    await (await client.transaction('write')).rollback()
  })

  it("in one writer scope, a write beside the scope's own open transaction joins it instead of deadlocking", async () => {
    const inScope = (name: string, outcome: 'commit' | 'rollback') =>
      runInWriterScope(async () => {
        const tx = await client.transaction('write')
        await tx.execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: [`${name}-tx`] })
        // Without the scope this would wait for the queue the transaction holds: a deadlock.
        await client.execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: [`${name}-beside`] })
        await client.batch([{ sql: 'INSERT INTO t (name) VALUES (?)', args: [`${name}-batch`] }])
        const nested = await client.transaction('write')
        await nested.execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: [`${name}-nested`] })
        await nested.commit()
        if (outcome === 'commit') await tx.commit()
        else await tx.rollback()
      })
    const names = async (prefix: string) =>
      (
        await client.execute({
          sql: 'SELECT name FROM t WHERE name LIKE ? ORDER BY id',
          args: [`${prefix}-%`],
        })
      ).rows.map((r) => r.name)

    // Another scope's write meanwhile waits for the commit; it does not join.
    let otherDone = false
    const committed = inScope('kept', 'commit')
    const other = runInWriterScope(() =>
      client.execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: ['other-scope'] }),
    ).then(() => (otherDone = true))
    await committed
    await other
    expect(otherDone).toBe(true)
    expect(await names('kept')).toEqual(['kept-tx', 'kept-beside', 'kept-batch', 'kept-nested'])
    expect(await names('other')).toEqual(['other-scope'])

    await inScope('dropped', 'rollback')
    expect(await names('dropped')).toEqual([])
  })

  it("waits for the other process's write lock without stopping the event loop", async () => {
    // Another connection stands for the other process (the worker or the web process).
    const other = new Database(file)
    other.exec('BEGIN IMMEDIATE')
    other.exec("INSERT INTO t (name) VALUES ('other-process')")
    let ticks = 0
    const ticker = setInterval(() => (ticks += 1), 5)
    try {
      const writes = Promise.all([
        (async () => {
          const tx = await client.transaction('write')
          await tx.execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: ['lock-tx'] })
          await tx.commit()
        })(),
        client.execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: ['lock-execute'] }),
        client.batch([{ sql: 'INSERT INTO t (name) VALUES (?)', args: ['lock-batch'] }], 'write'),
        client.executeWithoutSync({
          sql: 'INSERT INTO t (name) VALUES (?)',
          args: ['lock-nosync'],
        }),
      ])
      // The holder can only let go if this process goes on running while the client waits:
      // with SQLite's busy timeout waiting inside the statement, it never would.
      await new Promise((resolve) => setTimeout(resolve, 150))
      expect(ticks).toBeGreaterThanOrEqual(5)
      other.exec('COMMIT')
      await writes
    } finally {
      clearInterval(ticker)
      if (other.inTransaction) other.exec('ROLLBACK')
      other.close()
    }
    const names = (
      await client.execute(
        "SELECT name FROM t WHERE name = 'other-process' OR name LIKE 'lock-%' ORDER BY id",
      )
    ).rows.map((r) => r.name)
    expect(names[0]).toBe('other-process')
    expect(names.toSorted()).toEqual(
      ['lock-batch', 'lock-execute', 'lock-nosync', 'lock-tx', 'other-process'].toSorted(),
    )
    // Back to the busy timeout and to full durability once it had the lock.
    expect((await client.execute('PRAGMA busy_timeout')).rows[0]![0]).toBe(2_000)
    expect((await client.execute('PRAGMA synchronous')).rows[0]![0]).toBe(2)
  })

  it('gives up with SQLITE_BUSY after its busy timeout, having served meanwhile', async () => {
    const impatient = createShopSqliteClient({ path: file, busyTimeoutMs: 200 })
    const other = new Database(file)
    other.exec('BEGIN IMMEDIATE')
    let ticks = 0
    const ticker = setInterval(() => (ticks += 1), 5)
    try {
      const started = Date.now()
      const failed = await impatient
        .execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: ['never'] })
        .catch((error: unknown) => error)
      expect(failed).toBeInstanceOf(LibsqlError)
      expect((failed as LibsqlError).code).toBe('SQLITE_BUSY')
      expect(Date.now() - started).toBeGreaterThanOrEqual(190)
      expect(ticks).toBeGreaterThanOrEqual(5)
    } finally {
      clearInterval(ticker)
      other.exec('ROLLBACK')
      other.close()
      impatient.close()
    }
    const found = await client.execute("SELECT count(*) AS n FROM t WHERE name = 'never'")
    expect(found.rows[0]!.n).toBe(0)
  })

  it('writes the unsynced statements of a turn in one transaction, each with its own outcome', async () => {
    // Alone, each rate-limit hit is a transaction of its own, seven statements (pragmas, BEGIN,
    // itself, COMMIT), and under a rush those would be most of SQLite's calls.
    const probe = new Database(':memory:')
    const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<
      'run' | 'all',
      (...args: unknown[]) => unknown
    >
    probe.close()
    const original = { run: proto.run, all: proto.all }
    let calls = 0
    for (const method of ['run', 'all'] as const)
      proto[method] = function counted(this: unknown, ...args: unknown[]) {
        calls += 1
        return original[method].apply(this, args)
      }
    const names = Array.from({ length: 20 }, (_, i) => (i === 12 ? 'unsynced-3' : `unsynced-${i}`))
    let outcomes: PromiseSettledResult<unknown>[]
    try {
      outcomes = await Promise.allSettled(
        names.map((name) =>
          client.executeWithoutSync({ sql: 'INSERT INTO t (name) VALUES (?)', args: [name] }),
        ),
      )
    } finally {
      Object.assign(proto, original)
    }
    expect(calls).toBeLessThanOrEqual(30)
    // The duplicate fails alone; the others are stored.
    expect(outcomes.map((o) => o.status)).toEqual(
      names.map((_, i) => (i === 12 ? 'rejected' : 'fulfilled')),
    )
    expect((outcomes[12] as PromiseRejectedResult).reason).toMatchObject({
      code: expect.stringMatching(/^SQLITE_CONSTRAINT/),
    })
    const stored = await client.execute("SELECT count(*) AS n FROM t WHERE name LIKE 'unsynced-%'")
    expect(Number(stored.rows[0]!.n)).toBe(19)
    expect((await client.execute('PRAGMA synchronous')).rows[0]![0]).toBe(2)
  })

  it('reuses its connections and prepared statements across many transactions', async () => {
    const work = async () => {
      for (let i = 0; i < 3; i += 1) {
        const tx = await client.transaction('write')
        await tx.execute({ sql: 'UPDATE t SET qty = qty + 1 WHERE name = ?', args: ['b'] })
        await tx.execute({ sql: 'SELECT qty FROM t WHERE name = ?', args: ['b'] })
        await tx.commit()
        await client.execute({ sql: 'SELECT qty FROM t WHERE name = ?', args: ['b'] })
      }
    }
    await work() // warm: every SQL text prepared once on each connection it runs on
    const opened = client.connectionsOpened
    const prepares = await preparesDuring(async () => {
      for (let round = 0; round < 100; round += 1) await work()
    })
    expect(prepares).toBe(0)
    expect(client.connectionsOpened).toBe(opened)
    expect(opened).toBeLessThanOrEqual(3)
  })

  it('gives every connection the busy timeout and WAL', async () => {
    const tx = await client.transaction('write')
    expect((await tx.execute('PRAGMA busy_timeout')).rows[0]![0]).toBe(2_000)
    await tx.commit()
    expect((await client.execute('PRAGMA busy_timeout')).rows[0]![0]).toBe(2_000)
    expect((await client.execute('PRAGMA journal_mode')).rows[0]![0]).toBe('wal')
  })

  it('runs a batch atomically: one failing statement leaves nothing behind', async () => {
    const batch = client.batch(
      [
        { sql: 'INSERT INTO t (name) VALUES (?)', args: ['batch-1'] },
        { sql: 'INSERT INTO t (name) VALUES (?)', args: ['a'] },
      ],
      'write',
    )
    await expect(batch).rejects.toBeInstanceOf(LibsqlError)
    expect((await client.execute("SELECT id FROM t WHERE name = 'batch-1'")).rows).toHaveLength(0)
    const done = await client.batch([
      { sql: 'INSERT INTO t (name) VALUES (?)', args: ['batch-2'] },
      "SELECT name FROM t WHERE name = 'batch-2'",
    ])
    expect(done[1]!.rows[0]!.name).toBe('batch-2')
  })
})

describe('a long run of statements', () => {
  /**
   * Runs `statement` in a loop until a 0 ms timer set first has run (or 500 ms have gone). It
   * starts on a turn of its own: a turn an earlier test left open would count against this one.
   */
  async function untilTimerRuns(statement: () => Promise<unknown>) {
    await new Promise((resolve) => setImmediate(resolve))
    let timerRan = false
    setTimeout(() => (timerRan = true), 0)
    const started = performance.now()
    let statements = 0
    while (!timerRan && performance.now() - started < 500) {
      await statement()
      statements += 1
    }
    return { timerRan, statements, ms: performance.now() - started }
  }

  it('lets timers and sockets run in between: libsql answers at once, and awaits alone never yield', async () => {
    // The worker taking up a rush of 4,500 orders (their e-mails queued one by one) ran as one
    // chain of microtasks for 21 s: no push, no timer, and its lease ran out meanwhile.
    const reads = await untilTimerRuns(() =>
      client.execute({ sql: 'SELECT name FROM t WHERE id = ?', args: [1] }),
    )
    expect(reads.timerRan).toBe(true)
    // Not before every statement: a turn of reads goes on for 20 ms first. (A count of statements
    // would depend on the machine's load; the turn's length does not.)
    expect(reads.statements).toBeGreaterThan(1)
    expect(reads.ms).toBeGreaterThanOrEqual(20)
    const writes = await untilTimerRuns(() =>
      client.execute({
        sql: 'INSERT INTO t (name) VALUES (?) ON CONFLICT(name) DO UPDATE SET qty = coalesce(qty, 0) + 1',
        args: ['turns'],
      }),
    )
    expect(writes.timerRan).toBe(true)
  })
})
