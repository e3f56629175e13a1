/**
 * `npm run db:copy -- --from file:data/shop.db --to postgres://user:pass@host/db`: moves a
 * SQLite shop up to PostgreSQL. Stop the shop (web and worker) first: the copy reads one
 * snapshot of the SQLite file.
 *
 * 1. Refuses a target that holds any row of a copied table (exit code 2, nothing written).
 * 2. Applies the target's migrations (cms/src/migrations-postgres), as a production start does.
 * 3. Copies every table in one transaction on the target, ids kept, in the order the foreign
 *    keys allow: products, orders, payments, the orders' history, download tokens, staff and
 *    their sessions, site texts (globals), papers, timeline, documents, media and digital file
 *    records (the rows: the files stay where they are, in DATA_DIR or the bucket), the e-mail
 *    outbox, webhook deliveries, queued jobs, counters (the next address index continues).
 *    Not copied: leases, rate limits, editors' document locks (dbCopyTables.ts, NOT_COPIED).
 * 4. Moves PostgreSQL's id sequences past the copied ids, compares every table's count on both
 *    sides (a difference rolls everything back) and prints them.
 * Exit code 0 when copied, 2 when the target is not empty, 1 with one line saying why otherwise.
 */
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'

import type { Migration } from 'payload'
import pg from 'pg'

import { loadEnv } from '../config/env'
import { fromRoot } from '../config/paths'
import type { PgRunner } from '../db/engine'
import { holdProcessOpen } from '../server/holdOpen'
import type { SqliteReader } from './dbCopyTables'
import {
  copyDeferred,
  copyPlan,
  copyRows,
  countBoth,
  fixSequences,
  NOT_COPIED,
  rowsHeld,
  schemaProblems,
  targetTables,
  wasPushed,
} from './dbCopyTables'

class Refused extends Error {}

function fail(message: string, code = 1): never {
  console.error(`db-copy: ${message}`)
  process.exit(code)
}

/** The URI without its password, for messages. */
function shown(uri: string): string {
  try {
    const url = new URL(uri)
    if (url.password) url.password = '***'
    return url.toString()
  } catch {
    return uri
  }
}

function options(): { from: string; to: string } {
  const { values } = parseArgs({
    options: { from: { type: 'string' }, to: { type: 'string' } },
    allowPositionals: false,
  })
  const from = values.from ?? ''
  // In compose the target is the service's own database.
  const to = values.to ?? loadEnv().databaseUri
  const usage = 'usage: npm run db:copy -- --from file:data/shop.db --to postgres://...'
  if (!from.startsWith('file:')) fail(`--from must be a SQLite file: path. ${usage}`)
  if (!/^postgres(ql)?:\/\//.test(to)) fail(`--to must be a postgres:// URI. ${usage}`)
  return { from: `file:${path.resolve(fromRoot(), from.slice('file:'.length))}`, to }
}

/** Refuses a target with rows, or one test mode pushed: before anything is written. */
async function checkEmpty(target: PgRunner, uri: string): Promise<void> {
  const held = await rowsHeld(target)
  if (held.length > 0)
    throw new Refused(
      `${shown(uri)} is not empty (${held.map((h) => `${h.table}: ${h.rows}`).join(', ')}): ` +
        'db:copy copies into an empty database only. Nothing was written.',
    )
  if (await wasPushed(target))
    throw new Refused(
      `${shown(uri)} holds a schema pushed by test mode, not migrated: copy into a new, empty database. Nothing was written.`,
    )
}

async function checkEmptyFirst(uri: string): Promise<void> {
  const client = new pg.Client({ connectionString: uri })
  await client.connect()
  try {
    await checkEmpty(client as unknown as PgRunner, uri)
  } finally {
    await client.end()
  }
}

/** A Payload on the target, its migrations applied (production applies them at start too). */
async function migratedTarget(to: string) {
  // The shop's settings, pointed at the target before Payload's config reads them; test mode
  // must not push a schema there.
  // eslint-disable-next-line no-restricted-properties -- written for the config, not read
  Object.assign(process.env, { DATABASE_URI: to, DB_PUSH: 'false' })
  const { createLogger } = await import('../server/logger')
  const env = loadEnv()
  createLogger(env.logLevel, 'db-copy')
  const { getPayload } = await import('payload')
  const { default: config } = await import('../payload.config')
  const { migrations } = await import('../migrations-postgres')
  const payload = await getPayload({ config })
  // The generated files type their arguments as the adapter's; Payload's list takes any.
  await payload.db.migrate({ migrations: migrations as unknown as Migration[] })
  return payload
}

type Counts = Awaited<ReturnType<typeof countBoth>>

/** The copy itself, in one transaction on the target: every table or none. */
async function copyAll(source: SqliteReader, target: PgRunner, uri: string): Promise<Counts> {
  await target.query('BEGIN')
  try {
    // Nothing may be written meanwhile (a web process started too early).
    await target.query('LOCK TABLE orders, products IN EXCLUSIVE MODE')
    await checkEmpty(target, uri)
    const tables = await targetTables(target)
    const problems = await schemaProblems(source, tables)
    if (problems.length > 0)
      throw new Error(
        `the two schemas differ (start the SQLite shop once with this version, which applies its migrations, then copy again):\n  ${problems.join('\n  ')}`,
      )
    const plan = copyPlan(tables)
    for (const table of plan.order)
      await copyRows(source, target, table, plan.deferred.get(table.name))
    for (const table of plan.order) {
      const later = plan.deferred.get(table.name)
      if (later) await copyDeferred(source, target, table, later)
    }
    await fixSequences(target, plan.order)
    const counts = await countBoth(source, target, plan.order)
    const wrong = counts.filter((c) => c.source !== c.target)
    if (wrong.length > 0)
      throw new Error(
        `counts differ after the copy, nothing kept: ${wrong.map((c) => `${c.table} ${c.source} ≠ ${c.target}`).join(', ')}`,
      )
    await target.query('COMMIT')
    return counts
  } catch (error) {
    await target.query('ROLLBACK').catch(() => undefined)
    throw error
  }
}

function printCounts(counts: Counts, from: string, to: string): void {
  const width = Math.max(...counts.map((c) => c.table.length), 5)
  const lines = [
    `db-copy: ${from} -> ${shown(to)}`,
    `  ${'table'.padEnd(width)}  ${'SQLite'.padStart(8)}  ${'PostgreSQL'.padStart(10)}`,
    ...counts.map(
      (c) =>
        `  ${c.table.padEnd(width)}  ${String(c.source).padStart(8)}  ${String(c.target).padStart(10)}`,
    ),
    `  not copied: ${Object.entries(NOT_COPIED)
      .map(([table, why]) => `${table} (${why})`)
      .join('; ')}`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}

async function main(): Promise<void> {
  const { from, to } = options()
  if (!fs.existsSync(from.slice('file:'.length))) fail(`${from} does not exist.`)
  await checkEmptyFirst(to)
  const payload = await migratedTarget(to)
  const { createClient } = await import('@libsql/client')
  const sqlite = createClient({ url: from })
  const snapshot = await sqlite.transaction('read')
  const { postgres } = await import('../db/engine')
  const connection = await postgres(payload).connect()
  try {
    const counts = await copyAll(snapshot, connection, to)
    printCounts(counts, from, to)
  } finally {
    connection.release()
    snapshot.close()
    sqlite.close()
  }
}

holdProcessOpen()
try {
  await main()
  process.exit(0)
} catch (error) {
  if (error instanceof Refused) fail(error.message, 2)
  fail(error instanceof Error ? error.message : String(error))
}
