import type { InStatement, ResultSet, Transaction } from '@libsql/client'
import Database from 'libsql'
import type { Payload } from 'payload'
import pg from 'pg'
import { vi } from 'vitest'

import { engineOf, postgres, sqlite } from '../../src/db/engine'

/**
 * What a query costs on a database full of history, on either SQL engine: the statements the
 * shop sends (with their arguments), each one's plan (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on
 * PostgreSQL), and what running it once reads (SQLite: the statement's virtual machine steps;
 * PostgreSQL: the rows each scan read, from EXPLAIN ANALYZE). Writes are run inside a
 * transaction that is rolled back.
 */

export type SentStatement = { sql: string; args: unknown[] }

export type Captured = { statements: SentStatement[]; restore: () => void }

const argsOf = (stmt: InStatement | string, args?: unknown): unknown[] => {
  if (typeof stmt !== 'string' && Array.isArray(stmt.args)) return [...stmt.args]
  return Array.isArray(args) ? [...args] : []
}
const sqlOf = (stmt: InStatement | string) => (typeof stmt === 'string' ? stmt : stmt.sql)

/**
 * Records every statement the shop sends from now until `restore`, whoever sends it (Payload,
 * the shop's own SQL, the payment worker in this process), inside transactions or not.
 * SQLite: the shop's client (`execute`, `batch`, and the same on each transaction it opens).
 * PostgreSQL: every query of a connection of Payload's pool.
 */
export function captureStatements(payload: Payload): Captured {
  const statements: SentStatement[] = []
  const note = (stmt: InStatement | string, args?: unknown) =>
    statements.push({ sql: sqlOf(stmt), args: argsOf(stmt, args) })
  const restores: (() => void)[] = []

  if (engineOf(payload) === 'postgres') {
    const pool = postgres(payload) as unknown as { Client: typeof pg.Client }
    const proto = pool.Client.prototype as unknown as { query: (...a: unknown[]) => unknown }
    const query = proto.query
    const spy = vi.spyOn(proto, 'query').mockImplementation(function (
      this: unknown,
      ...args: unknown[]
    ) {
      const [first, second] = args
      if (typeof first === 'string') note(first, Array.isArray(second) ? second : [])
      else if (first && typeof first === 'object' && 'text' in first) {
        const config = first as { text: string; values?: unknown[] }
        note(config.text, Array.isArray(second) ? second : (config.values ?? []))
      }
      return query.apply(this, args)
    })
    return { statements, restore: () => spy.mockRestore() }
  }

  const client = sqlite(payload) as ReturnType<typeof sqlite> & {
    executeWithoutSync?: (stmt: InStatement) => Promise<ResultSet>
  }
  const watchTransaction = (tx: Transaction) => {
    const execute = tx.execute.bind(tx)
    const batch = tx.batch.bind(tx)
    tx.execute = ((stmt: InStatement, args?: unknown) => {
      note(stmt, args)
      return (execute as (...a: unknown[]) => Promise<ResultSet>)(stmt, args)
    }) as typeof tx.execute
    tx.batch = (stmts: InStatement[]) => {
      for (const stmt of stmts) note(stmt)
      return batch(stmts)
    }
    return tx
  }
  const execute = client.execute.bind(client) as (...a: unknown[]) => Promise<ResultSet>
  restores.push(
    vi.spyOn(client, 'execute').mockImplementation(((stmt: InStatement, args?: unknown) => {
      note(stmt, args)
      return execute(stmt, args)
    }) as typeof client.execute).mockRestore,
  )
  const batch = client.batch.bind(client)
  restores.push(
    vi.spyOn(client, 'batch').mockImplementation((stmts, mode) => {
      for (const stmt of stmts) note(stmt)
      return batch(stmts, mode)
    }).mockRestore,
  )
  const transaction = client.transaction.bind(client)
  restores.push(
    vi
      .spyOn(client, 'transaction')
      .mockImplementation(async (mode) => watchTransaction(await transaction(mode))).mockRestore,
  )
  if (client.executeWithoutSync) {
    const withoutSync = client.executeWithoutSync.bind(client)
    restores.push(
      vi
        .spyOn(client as Required<Pick<typeof client, 'executeWithoutSync'>>, 'executeWithoutSync')
        .mockImplementation((stmt) => {
          note(stmt)
          return withoutSync(stmt)
        }).mockRestore,
    )
  }
  return { statements, restore: () => restores.forEach((restore) => restore()) }
}

/**
 * A statement's text as one shape for every run: no quotes, one space between words, `?` for
 * every parameter (PostgreSQL's `$1` too) and literal, `(?)` for any list of them, and the random
 * aliases Payload gives a join's subquery made one.
 */
export const normalSql = (sql: string): string =>
  sql
    .replace(/\s+/g, ' ')
    .replace(/"/g, '')
    .replace(/`/g, '')
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\$\d+/g, '?')
    .replace(/\b[0-9a-f]{8}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{12}\b/g, 'alias')
    .replace(/\(\?(?:, ?\?)*\)/g, '(?)')
    .trim()

/** One statement's plan and what running it once read. */
export type QueryCost = {
  /** The plan as the engine prints it, one line per step. */
  plan: string[]
  /** Steps of the plan that read a whole table or a whole index of one of `tables`. */
  fullScans: { table: string; step: string }[]
  /**
   * What running the statement once read: SQLite's virtual machine steps for the statement
   * (every row a scan or a search visits costs at least one); PostgreSQL's rows read by the
   * scans of `tables` (returned, or removed by a filter or a recheck, times the scan's loops).
   * Unknown for a write that cannot run again (a key it inserted is taken now): its plan is
   * still read.
   */
  reads: number | undefined
}

export type QueryCoster = {
  costOf: (statement: SentStatement, tables: readonly string[]) => Promise<QueryCost>
  /** A read of the database measured (written with `?`), its rows. */
  rows: (sql: string) => Promise<Record<string, unknown>[]>
  close: () => Promise<void>
}

/**
 * Plans and runs statements on the shop's database (`databaseUri`, a `file:` path or a
 * `postgres://` URI) over a connection of its own, so what is measured is the statement alone.
 */
export async function queryCoster(databaseUri: string): Promise<QueryCoster> {
  if (/^postgres(ql)?:/.test(databaseUri)) return postgresCoster(databaseUri)
  return sqliteCoster(databaseUri.replace(/^file:/, ''))
}

function sqliteCoster(file: string): QueryCoster {
  const db = new Database(file)
  let n = 0
  return {
    async costOf({ sql, args }, tables) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(args) as { detail: string }[]).map(
        (row) => row.detail,
      )
      // "SCAN t" reads the whole table, "SCAN t USING [COVERING] INDEX i" the whole index;
      // a bounded read is a SEARCH (an index range or key) or a scan of a subquery's rows.
      const fullScans = plan.flatMap((step) => {
        const table = /^SCAN (\w+)/.exec(step)?.[1]
        return table !== undefined && tables.includes(table) ? [{ table, step }] : []
      })
      // A comment of its own makes the statement's row in sqlite_stmt (the connection's
      // prepared statements with their counters) this run's alone.
      const marked = `/* query-cost ${++n} */ ${sql}`
      const statement = db.prepare(marked)
      const write = !statement.reader
      if (write) db.exec('BEGIN IMMEDIATE')
      try {
        if (write) statement.run(args)
        else statement.all(args)
      } catch (error) {
        if (!write || !/constraint/i.test(String(error))) throw error
        return { plan, fullScans, reads: undefined }
      } finally {
        if (write) db.exec('ROLLBACK')
      }
      const counted = db.prepare('SELECT nstep FROM sqlite_stmt WHERE sql = ?').get([marked]) as
        { nstep: number } | undefined
      if (!counted) throw new Error('sqlite_stmt did not list the statement just run.')
      return { plan, fullScans, reads: Number(counted.nstep) }
    },
    async rows(sql) {
      return db.prepare(sql).all() as Record<string, unknown>[]
    },
    async close() {
      db.close()
    },
  }
}

type PgPlanNode = {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  'Index Cond'?: string
  Filter?: string
  'Actual Rows'?: number
  'Actual Loops'?: number
  'Rows Removed by Filter'?: number
  'Rows Removed by Index Recheck'?: number
  Plans?: PgPlanNode[]
}

const TABLE_SCANS = ['Seq Scan', 'Index Scan', 'Index Only Scan', 'Bitmap Heap Scan']

async function postgresCoster(uri: string): Promise<QueryCoster> {
  const client = new pg.Client({ connectionString: uri })
  // The test shop drops its database with the connections left on it.
  client.on('error', () => {})
  await client.connect()
  return {
    async costOf({ sql, args }, tables) {
      const plan: string[] = []
      const fullScans: QueryCost['fullScans'] = []
      let reads = 0
      const visit = (node: PgPlanNode, depth: number) => {
        const relation = node['Relation Name']
        const line = [
          `${'  '.repeat(depth)}${node['Node Type']}`,
          relation ? ` on ${relation}` : '',
          node['Index Name'] ? ` using ${node['Index Name']}` : '',
          node['Index Cond'] ? ` (${node['Index Cond']})` : '',
          node.Filter ? ` filter ${node.Filter}` : '',
          ` rows=${node['Actual Rows'] ?? '?'} loops=${node['Actual Loops'] ?? '?'}`,
        ].join('')
        plan.push(line)
        if (relation && tables.includes(relation) && TABLE_SCANS.includes(node['Node Type'])) {
          // A Seq Scan reads the whole table; an index scan with no condition walks the whole
          // index (an ORDER BY answered from it).
          const indexScan = node['Node Type'].startsWith('Index')
          if (node['Node Type'] === 'Seq Scan' || (indexScan && !node['Index Cond']))
            fullScans.push({ table: relation, step: line.trim() })
          reads +=
            ((node['Actual Rows'] ?? 0) +
              (node['Rows Removed by Filter'] ?? 0) +
              (node['Rows Removed by Index Recheck'] ?? 0)) *
            (node['Actual Loops'] ?? 1)
        }
        for (const child of node.Plans ?? []) visit(child, depth + 1)
      }
      const explain = async (options: string) => {
        const result = await client.query(`EXPLAIN (${options}, FORMAT JSON) ${sql}`, args)
        return (result.rows[0]?.['QUERY PLAN'] as { Plan: PgPlanNode }[])[0]!.Plan
      }
      await client.query('BEGIN')
      try {
        await client.query('SAVEPOINT measured')
        let root: PgPlanNode
        let ran = true
        try {
          root = await explain('ANALYZE')
        } catch (error) {
          // A write whose key is taken now (23505, 23503...): planned, not run.
          if ((error as { code?: string }).code?.startsWith('23') !== true) throw error
          await client.query('ROLLBACK TO SAVEPOINT measured')
          root = await explain('ANALYZE false')
          ran = false
        }
        visit(root, 0)
        return { plan, fullScans, reads: ran ? reads : undefined }
      } finally {
        await client.query('ROLLBACK')
      }
    },
    async rows(sql) {
      return (await client.query(sql)).rows
    },
    async close() {
      await client.end()
    },
  }
}
