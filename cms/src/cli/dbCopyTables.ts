/**
 * The table-by-table copy of `npm run db:copy`: a SQLite shop's rows into a PostgreSQL database
 * that holds the same schema (its migrations applied), with every id kept. Payload's Local API is
 * not used for the rows: its hooks would act again (stock, e-mails, history, fresh timestamps)
 * and uploads would ask for their files; plain SQL writes the rows as they are.
 */
import type { InStatement, ResultSet } from '@libsql/client'

import { normalizeProductType, PRODUCT_TYPES } from '@shop/domain'

import type { PgRunner } from '../db/engine'

/** Tables db:copy leaves out, and why (printed by the CLI). */
export const NOT_COPIED: Record<string, string> = {
  leases: 'the payment worker takes its lease afresh',
  rate_limits: 'short-lived counts per client and address',
  payload_locked_documents: "editors' open-document locks",
  payload_locked_documents_rels: "editors' open-document locks",
  payload_migrations: "the target's own, applied before the copy",
}

/** The source's rows: one SQLite read transaction (a snapshot). */
export type SqliteReader = { execute: (stmt: InStatement) => Promise<ResultSet> }

export type Column = {
  name: string
  type: string
  nullable: boolean
  serial: boolean
  /** An enum column's labels, which PostgreSQL refuses any other value of. */
  labels?: string[]
}
export type Table = { name: string; columns: Column[]; references: Map<string, string> }
/** The tables in an order their foreign keys allow, and the columns set once all are in. */
export type CopyPlan = { order: Table[]; deferred: Map<string, Column[]> }

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`

/** The target's tables (those copied), their columns and foreign keys. */
export async function targetTables(target: PgRunner): Promise<Table[]> {
  const columns = await target.query(
    `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, c.column_default,
            (SELECT array_agg(e.enumlabel::text ORDER BY e.enumsortorder)
               FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
              WHERE t.typname = c.udt_name) AS labels
       FROM information_schema.columns c WHERE c.table_schema = 'public'
      ORDER BY c.table_name, c.ordinal_position`,
  )
  const keys = await target.query(
    `SELECT c.conrelid::regclass::text AS "table", a.attname AS "column",
            c.confrelid::regclass::text AS "references"
       FROM pg_constraint c
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
      WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace`,
  )
  const tables = new Map<string, Table>()
  for (const row of columns.rows) {
    const name = String(row.table_name)
    if (name in NOT_COPIED) continue
    const table: Table = tables.get(name) ?? { name, columns: [], references: new Map() }
    tables.set(name, table)
    table.columns.push({
      name: String(row.column_name),
      type: String(row.data_type),
      nullable: row.is_nullable === 'YES',
      serial: String(row.column_default ?? '').startsWith('nextval('),
      ...(Array.isArray(row.labels) ? { labels: row.labels.map(String) } : {}),
    })
  }
  for (const key of keys.rows)
    tables.get(String(key.table))?.references.set(String(key.column), String(key.references))
  return [...tables.values()]
}

/** Every difference between the two schemas that would lose or miss data, one line each. */
export async function schemaProblems(source: SqliteReader, tables: Table[]): Promise<string[]> {
  const listed = await source.execute(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
  )
  const sourceTables = new Set(listed.rows.map((row) => String(row.name)))
  const problems: string[] = []
  for (const table of tables) {
    if (!sourceTables.has(table.name)) {
      problems.push(`${table.name}: missing in the SQLite database`)
      continue
    }
    const info = await source.execute(`PRAGMA table_info(${quoted(table.name)})`)
    const have = new Set(info.rows.map((row) => String(row.name)))
    const want = new Set(table.columns.map((column) => column.name))
    for (const column of want)
      if (!have.has(column))
        problems.push(`${table.name}.${column}: missing in the SQLite database`)
    for (const column of have)
      if (!want.has(column)) problems.push(`${table.name}.${column}: missing in PostgreSQL`)
  }
  const known = new Set([...tables.map((t) => t.name), ...Object.keys(NOT_COPIED)])
  for (const name of sourceTables)
    if (!known.has(name)) problems.push(`${name}: missing in PostgreSQL`)
  return problems
}

/**
 * Tables after the tables they refer to. A cycle (an order and its download token refer to each
 * other) is broken at a table whose waiting references are nullable: its rows go in with those
 * columns empty, and the columns are set once every table is in.
 */
export function copyPlan(tables: Table[]): CopyPlan {
  const copied = new Set(tables.map((t) => t.name))
  const done = new Set<string>()
  const order: Table[] = []
  const deferred = new Map<string, Column[]>()
  const waitingOn = (table: Table) =>
    table.columns.filter((c) => {
      const to = table.references.get(c.name)
      return to !== undefined && copied.has(to) && !done.has(to)
    })
  while (order.length < tables.length) {
    const left = tables.filter((t) => !done.has(t.name))
    let next = left.find((t) => waitingOn(t).length === 0)
    if (!next) {
      next = left.find((t) => waitingOn(t).every((c) => c.nullable))
      if (!next) throw new Error(`no order of ${left.map((t) => t.name).join(', ')} fits`)
      deferred.set(next.name, waitingOn(next))
    }
    order.push(next)
    done.add(next.name)
  }
  return { order, deferred }
}

const isProductTypeEnum = (labels: string[]) =>
  labels.length === PRODUCT_TYPES.length && PRODUCT_TYPES.every((t) => labels.includes(t))

/**
 * An enum value as the target's enum spells it. SQLite keeps any text, so a shop imported from
 * the old one may still say PDF or EPUB where the enum of product types holds DIGITAL; those
 * read as the domain reads them. Any other unknown value goes as it is, and PostgreSQL's refusal
 * rolls the copy back.
 */
function enumValue(value: unknown, labels: string[]): unknown {
  if (labels.includes(String(value)) || !isProductTypeEnum(labels)) return value
  return normalizeProductType(value) ?? value
}

/** A SQLite value as PostgreSQL takes it for a column of this type. */
export function forTarget(value: unknown, column: Column): unknown {
  if (value === null || value === undefined) return null
  if (column.labels) return enumValue(value, column.labels)
  if (column.type === 'boolean')
    return typeof value === 'number' || typeof value === 'bigint'
      ? Number(value) !== 0
      : ['1', 'true', 't'].includes(String(value).toLowerCase())
  if (column.type === 'json' || column.type === 'jsonb')
    return typeof value === 'string' ? value : JSON.stringify(value)
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof ArrayBuffer) return Buffer.from(value)
  return value
}

const PAGE = 500

/** Copies one table's rows, page by page (deferred columns left empty): how many. */
export async function copyRows(
  source: SqliteReader,
  target: PgRunner,
  table: Table,
  deferred: Column[] = [],
): Promise<number> {
  const names = table.columns.map((c) => quoted(c.name)).join(', ')
  const later = new Set(deferred.map((c) => c.name))
  let copied = 0
  for (;;) {
    const page = await source.execute({
      sql: `SELECT ${names} FROM ${quoted(table.name)} ORDER BY rowid LIMIT ? OFFSET ?`,
      args: [PAGE, copied],
    })
    if (page.rows.length === 0) return copied
    const values: unknown[] = []
    const tuples = page.rows.map((row) => {
      const slots = table.columns.map((column, i) => {
        values.push(later.has(column.name) ? null : forTarget(row[i], column))
        return `$${values.length}`
      })
      return `(${slots.join(', ')})`
    })
    await target.query(
      `INSERT INTO ${quoted(table.name)} (${names}) VALUES ${tuples.join(', ')}`,
      values,
    )
    copied += page.rows.length
    if (page.rows.length < PAGE) return copied
  }
}

/** Sets the columns a cycle left empty, row by row (by id). */
export async function copyDeferred(
  source: SqliteReader,
  target: PgRunner,
  table: Table,
  columns: Column[],
): Promise<void> {
  const id = table.columns.find((c) => c.name === 'id')
  if (!id) throw new Error(`${table.name} has no id column to set ${columns[0]?.name} by`)
  const names = columns.map((c) => quoted(c.name))
  const rows = await source.execute(
    `SELECT id, ${names.join(', ')} FROM ${quoted(table.name)}
      WHERE ${names.map((n) => `${n} IS NOT NULL`).join(' OR ')}`,
  )
  const sets = names.map((n, i) => `${n} = $${i + 1}`).join(', ')
  for (const row of rows.rows)
    await target.query(
      `UPDATE ${quoted(table.name)} SET ${sets} WHERE id = $${columns.length + 1}`,
      [...columns.map((c, i) => forTarget(row[i + 1], c)), forTarget(row[0], id)],
    )
}

/** Moves each serial column's sequence past the copied ids, so new rows get fresh ones. */
export async function fixSequences(target: PgRunner, tables: Table[]): Promise<void> {
  for (const table of tables)
    for (const column of table.columns.filter((c) => c.serial))
      await target.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(MAX(${quoted(column.name)}), 0) + 1, false)
           FROM ${quoted(table.name)}`,
        [quoted(table.name), column.name],
      )
}

/** Each table's rows on both sides. */
export async function countBoth(
  source: SqliteReader,
  target: PgRunner,
  tables: Table[],
): Promise<{ table: string; source: number; target: number }[]> {
  const counts = []
  for (const table of tables) {
    const from = await source.execute(`SELECT count(*) AS n FROM ${quoted(table.name)}`)
    const to = await target.query(`SELECT count(*)::int AS n FROM ${quoted(table.name)}`)
    counts.push({
      table: table.name,
      source: Number(from.rows[0]?.n),
      target: Number(to.rows[0]?.n),
    })
  }
  return counts
}

/** The copied tables of the target that already hold rows (any at all refuses the copy). */
export async function rowsHeld(target: PgRunner): Promise<{ table: string; rows: number }[]> {
  const listed = await target.query(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
  )
  const held = []
  for (const { table_name: name } of listed.rows) {
    if (String(name) in NOT_COPIED) continue
    const count = await target.query(`SELECT count(*)::int AS n FROM ${quoted(String(name))}`)
    const rows = Number(count.rows[0]?.n)
    if (rows > 0) held.push({ table: String(name), rows })
  }
  return held
}

/** True when test mode pushed the target's schema (Payload's migrations would then ask first). */
export async function wasPushed(target: PgRunner): Promise<boolean> {
  const exists = await target.query("SELECT to_regclass('public.payload_migrations') AS t")
  if (!exists.rows[0]?.t) return false
  const pushed = await target.query('SELECT 1 FROM payload_migrations WHERE batch = -1 LIMIT 1')
  return pushed.rows.length > 0
}
