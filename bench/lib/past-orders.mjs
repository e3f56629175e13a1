// A year of past orders in the shop's database, written fast with SQL, as rows the shop itself
// writes: two real orders are made through the shop first (a PDF bought, paid and e-mailed; a
// printed book bought, paid, shipped by the admin and e-mailed), and every past order is a copy
// of one of them with its own ids, buyer, address, transaction and times (every timestamp moved
// by the same amount, so the intervals stay the shop's own). So the columns and their values are
// right on both engines without this file knowing them: the order, its history entries, its
// payment, its download token and its e-mails (sent; Payload deletes a job once it is done).
//
// Of the past orders 30 % are checkouts never paid (EXPIRED, 20 minutes after checkout, with
// their "order created" e-mail and the expiry in their history; made from the same copies: no
// payment, no token, no paid e-mail), 50 % PDFs paid and delivered, 20 % printed books shipped.
// They are spread evenly over the year before the last hour, from about 85 % as many buyers
// (some buy twice).
import crypto from 'node:crypto'

import { Utils } from '@bsv/sdk'
import Database from 'libsql'
import pg from 'pg'

import { adminHeaders } from './admin.mjs'
import { base, log, waitUntil } from './context.mjs'
import { openShopDb, whenNotBusy } from './database.mjs'
import { checkout, mineBlock, pay, PAID_STATUSES, statusIn } from './orders.mjs'
import { currentDatabase } from './shop.mjs'

const YEAR_MS = 365 * 24 * 3_600_000
const HOUR_MS = 3_600_000
/** Orders written in one transaction. */
const CHUNK = 2000
/** Address indexes of past orders: far above the shop's own and the detection section's. */
const FIRST_ADDRESS_INDEX = 2_000_000_000

/** Inserts `count` past orders (see above) into the current shop's database. */
export async function insertPastOrders(count, { pdf, book }) {
  const t0 = Date.now()
  const templates = await captureTemplates(pdf, book)
  const t1 = Date.now()
  const database = currentDatabase()
  const writer =
    database.engine === 'postgres'
      ? await postgresWriter(database.uri)
      : sqliteWriter(database.uri.replace(/^file:/, ''))
  try {
    const ids = await writer.nextIds(['payments', 'download_tokens', 'email_outbox'])
    const buyers = Math.max(1, Math.round(count * 0.85))
    const now = Date.now()
    for (let done = 0; done < count; done += CHUNK) {
      const rows = {
        orders: [],
        orders_history: [],
        payments: [],
        download_tokens: [],
        email_outbox: [],
      }
      const tokenOf = []
      for (let i = done; i < Math.min(count, done + CHUNK); i += 1) {
        const r = Math.random()
        const kind = r < 0.3 ? 'expired' : r < 0.8 ? 'pdf' : 'book'
        const template =
          kind === 'book' || (kind === 'expired' && Math.random() < 0.3)
            ? templates.book
            : templates.pdf
        const created = now - HOUR_MS - Math.floor(Math.random() * (YEAR_MS - HOUR_MS))
        const order = pastOrder(template, {
          expired: kind === 'expired',
          created,
          index: FIRST_ADDRESS_INDEX + i,
          email: `buyer-${1 + Math.floor(Math.random() * buyers)}@example.com`,
          ids,
        })
        for (const [table, list] of Object.entries(order.rows)) rows[table].push(...list)
        if (order.tokenId !== undefined) tokenOf.push([order.id, order.tokenId])
      }
      await writer.write(rows, tokenOf)
    }
    await writer.finish()
  } finally {
    await writer.close()
  }
  log(
    `past orders: ${count} written in ${Date.now() - t1} ms (the two real orders they copy took ${t1 - t0} ms)`,
  )
  return { templateMs: t1 - t0, writeMs: Date.now() - t1 }
}

/**
 * The two real orders, made through the shop and its worker, and their rows as the engine
 * answers them: `{ pdf, book }`, each `{ order, orders_history, payments, download_tokens,
 * email_outbox }` (lists but `order`).
 */
async function captureTemplates(pdf, book) {
  const made = []
  for (const [product, n] of [
    [pdf, 900_001],
    [book, 900_002],
  ]) {
    const { orderId } = await checkout(product, n, `template-${n}@example.com`)
    made.push(orderId)
  }
  const db = openShopDb()
  try {
    const { rows } = await db.execute({
      sql: `select id, payment_address, amount_satoshi_expected from orders where id in (?, ?)`,
      args: made,
    })
    for (const row of rows) await pay(row.payment_address, row.amount_satoshi_expected)
    for (const id of made) await statusIn(id, ['PAYMENT_DETECTED', ...PAID_STATUSES])
    await mineBlock()
    await statusIn(made[0], PAID_STATUSES)
    await statusIn(made[1], ['PROCESSING_DELIVERY'])
    const res = await fetch(`${base}/api/admin/orders/${made[1]}/ship`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...adminHeaders() },
      body: JSON.stringify({ trackingNumber: 'RR123456785IT' }),
    })
    if (!res.ok) throw new Error(`shipping the template order: ${res.status} ${await res.text()}`)
    await statusIn(made[1], ['SHIPPED'])
    // Every e-mail of both gone (created, paid, shipped): none pending. (An "order created"
    // e-mail whose order was paid before it went is `skipped`; the copies have it sent.)
    await waitUntil(
      async () => {
        const { rows: pending } = await whenNotBusy(() =>
          db.execute({
            sql: `select count(*) as n from email_outbox where order_id in (?, ?) and status = 'pending'`,
            args: made,
          }),
        )
        return Number(pending[0].n) === 0
      },
      { timeoutMs: 120_000, everyMs: 200, what: "the template orders' e-mails to be sent" },
    )
  } finally {
    db.close()
  }
  const read = currentDatabase().engine === 'postgres' ? readPostgres : readSqlite
  const [pdfRows, bookRows] = await read(currentDatabase().uri, made)
  return { pdf: pdfRows, book: bookRows }
}

const ROW_QUERIES = {
  order: 'select * from orders where id = ?',
  orders_history: 'select * from orders_history where _parent_id = ? order by _order',
  payments: 'select * from payments where order_id = ? order by id',
  download_tokens: 'select * from download_tokens where order_id = ? order by id',
  email_outbox: 'select * from email_outbox where order_id = ? order by id',
}

function rowsOf(query, id) {
  const rows = {}
  for (const [key, sql] of Object.entries(ROW_QUERIES)) {
    const found = query(sql, id)
    rows[key] = key === 'order' ? found[0] : found
  }
  return rows
}

async function readSqlite(uri, ids) {
  const db = new Database(uri.replace(/^file:/, ''))
  try {
    return ids.map((id) => rowsOf((sql, arg) => db.prepare(sql).all(arg), id))
  } finally {
    db.close()
  }
}

async function readPostgres(uri, ids) {
  const client = new pg.Client({ connectionString: uri })
  await client.connect()
  try {
    const out = []
    for (const id of ids) {
      const rows = {}
      for (const [key, sql] of Object.entries(ROW_QUERIES)) {
        const found = (await client.query(sql.replace('?', '$1'), [id])).rows
        rows[key] = key === 'order' ? found[0] : found
      }
      out.push(rows)
    }
    return out
  } finally {
    await client.end()
  }
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/
const hex = (bytes) => crypto.randomBytes(bytes).toString('hex')
const testnetAddress = () => Utils.toBase58Check(Array.from(crypto.randomBytes(20)), [0x6f])

/** A copy of `value` with times moved by `shiftMs` and the template's strings replaced. */
function copyValue(value, shiftMs, replace) {
  if (value instanceof Date) return new Date(value.getTime() + shiftMs)
  if (typeof value === 'string') {
    if (ISO.test(value)) return new Date(Date.parse(value) + shiftMs).toISOString()
    return replace(value)
  }
  if (value && typeof value === 'object' && !Buffer.isBuffer(value))
    return JSON.parse(replace(JSON.stringify(value)))
  return value
}

const copyRow = (row, shiftMs, replace, overrides = {}) => {
  const out = {}
  for (const [column, value] of Object.entries(row))
    out[column] = column in overrides ? overrides[column] : copyValue(value, shiftMs, replace)
  return out
}

/** A time of the copy, in the engine's own form (a Date on PostgreSQL, ISO text on SQLite). */
const timeLike = (sample, ms) =>
  sample instanceof Date ? new Date(ms) : new Date(ms).toISOString()
const msOf = (value) => (value instanceof Date ? value.getTime() : Date.parse(value))

/**
 * An e-mail of a past order, copied: sent. The template's "order created" e-mail may be
 * `skipped` (the shop does not send it once the order is paid, and the template was paid at
 * once); a year's buyers paid minutes after checkout, and theirs went.
 */
function copyMail(mail, shiftMs, replace, id) {
  const sent = mail.status === 'sent'
  const overrides = { id }
  if (!sent) {
    const copied = copyRow(mail, shiftMs, replace)
    Object.assign(overrides, {
      status: 'sent',
      attempts: 1,
      sent_at: copied.sent_at ?? copied.updated_at,
      last_error: null,
    })
  }
  return copyRow(mail, shiftMs, replace, overrides)
}

/** One past order copied from a template: its rows by table, its id and its token's id. */
function pastOrder(template, { expired, created, index, email, ids }) {
  const t = template.order
  const id = crypto.randomUUID()
  const txid = hex(32)
  const address = testnetAddress()
  const swaps = [
    [t.id, id],
    [t.payment_address, address],
    [t.user_email, email],
    ...(t.payment_txid ? [[t.payment_txid, txid]] : []),
  ]
  const replace = (text) => swaps.reduce((s, [from, to]) => s.replaceAll(from, to), text)
  const shiftMs = created - msOf(t.created_at)
  const rows = {
    orders: [],
    orders_history: [],
    payments: [],
    download_tokens: [],
    email_outbox: [],
  }
  const orderOverrides = {
    id,
    address_index: index,
    ...(t.client_key ? { client_key: hex(t.client_key.length / 2) } : {}),
    // Written once its token is in (the order and its token point at each other).
    download_token_id: null,
  }
  const historyId = (sample) => (/^[0-9a-f]{24}$/.test(sample) ? hex(12) : crypto.randomUUID())
  if (expired) {
    const expiresAt = msOf(t.gateway_expires_at) + shiftMs
    const at = timeLike(t.created_at, expiresAt)
    const unpaid = {
      status: 'EXPIRED',
      amount_satoshi_received: 0,
      payment_txid: null,
      paid_at: null,
      fulfilled_at: null,
      shipped_at: null,
      settled_at: null,
      shipping_tracking_number: null,
      stock_released_at: at,
      last_checked_at: at,
      updated_at: at,
    }
    for (const column of Object.keys(unpaid))
      if (column in t) orderOverrides[column] = unpaid[column]
    rows.orders.push(copyRow(t, shiftMs, replace, orderOverrides))
    const first = template.orders_history[0]
    if (first)
      rows.orders_history.push(
        copyRow(first, shiftMs, replace, {
          id: historyId(first.id),
          _order: 1,
          at,
          from_status: 'AWAITING_PAYMENT',
          to_status: 'EXPIRED',
          note: null,
          txid: null,
        }),
      )
    for (const mail of template.email_outbox.filter((m) => m.kind === 'order-created'))
      rows.email_outbox.push(copyMail(mail, shiftMs, replace, ids.email_outbox++))
    return { id, rows }
  }
  rows.orders.push(copyRow(t, shiftMs, replace, orderOverrides))
  for (const entry of template.orders_history)
    rows.orders_history.push(copyRow(entry, shiftMs, replace, { id: historyId(entry.id) }))
  for (const payment of template.payments)
    rows.payments.push(copyRow(payment, shiftMs, replace, { id: ids.payments++ }))
  let tokenId
  for (const token of template.download_tokens) {
    tokenId = ids.download_tokens++
    rows.download_tokens.push(
      copyRow(token, shiftMs, replace, {
        id: tokenId,
        token_hash: hex(token.token_hash.length / 2),
        // Most buyers downloaded their book.
        uses: Math.random() < 0.9 ? 1 : 0,
      }),
    )
  }
  for (const mail of template.email_outbox)
    rows.email_outbox.push(copyMail(mail, shiftMs, replace, ids.email_outbox++))
  return { id, rows, tokenId }
}

const TABLES = ['orders', 'download_tokens', 'orders_history', 'payments', 'email_outbox']
const quoted = (columns) => columns.map((c) => `"${c}"`).join(', ')

/** SQLite: one prepared statement per table, each chunk in one transaction (libsql directly). */
function sqliteWriter(file) {
  const db = new Database(file)
  db.exec('PRAGMA busy_timeout = 30000')
  const statements = new Map()
  const insert = (table, row) => {
    const columns = Object.keys(row)
    const key = `${table}:${columns.join(',')}`
    if (!statements.has(key))
      statements.set(
        key,
        db.prepare(
          `insert into "${table}" (${quoted(columns)}) values (${columns.map(() => '?').join(', ')})`,
        ),
      )
    statements.get(key).run(columns.map((c) => row[c]))
  }
  return {
    nextIds: async (tables) =>
      Object.fromEntries(
        tables.map((t) => [
          t,
          Number(db.prepare(`select coalesce(max(id), 0) + 1 as n from "${t}"`).get().n),
        ]),
      ),
    write: async (rows, tokenOf) => {
      const setToken = db.prepare('update orders set download_token_id = ? where id = ?')
      // BEGIN IMMEDIATE: the write lock at once (waiting for the shop's writers), never a
      // deferred transaction upgraded midway.
      db.exec('BEGIN IMMEDIATE')
      try {
        for (const table of TABLES) for (const row of rows[table]) insert(table, row)
        for (const [orderId, tokenId] of tokenOf) setToken.run(tokenId, orderId)
        db.exec('COMMIT')
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK')
        throw error
      }
    },
    finish: async () => undefined,
    close: async () => db.close(),
  }
}

/** PostgreSQL: multi-row INSERTs, each chunk in one transaction; sequences moved; ANALYZE. */
async function postgresWriter(uri) {
  const client = new pg.Client({ connectionString: uri })
  await client.connect()
  const toPg = (value) =>
    value && typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value)
      ? JSON.stringify(value)
      : value
  const insertRows = async (table, list) => {
    if (list.length === 0) return
    const columns = Object.keys(list[0])
    // Within PostgreSQL's 65,535 parameters a statement.
    const perStatement = Math.floor(60_000 / columns.length)
    for (let i = 0; i < list.length; i += perStatement) {
      const part = list.slice(i, i + perStatement)
      const values = []
      const tuples = part.map((row) => {
        const start = values.length
        for (const c of columns) values.push(toPg(row[c]))
        return `(${columns.map((_, j) => `$${start + j + 1}`).join(', ')})`
      })
      await client.query(
        `insert into "${table}" (${quoted(columns)}) values ${tuples.join(', ')}`,
        values,
      )
    }
  }
  return {
    nextIds: async (tables) => {
      const out = {}
      for (const t of tables)
        out[t] = Number(
          (await client.query(`select coalesce(max(id), 0) + 1 as n from "${t}"`)).rows[0].n,
        )
      return out
    },
    write: async (rows, tokenOf) => {
      await client.query('BEGIN')
      try {
        for (const table of TABLES) await insertRows(table, rows[table])
        if (tokenOf.length > 0)
          await client.query(
            `update orders o set download_token_id = v.token
               from unnest($1::varchar[], $2::int[]) as v(id, token) where o.id = v.id`,
            [tokenOf.map(([o]) => o), tokenOf.map(([, t]) => t)],
          )
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw error
      }
    },
    finish: async () => {
      // The serial ids go on after the copies' (the shop's next rows take the next ones).
      for (const t of ['payments', 'download_tokens', 'email_outbox'])
        await client.query(
          `select setval(pg_get_serial_sequence('${t}', 'id'), (select max(id) from "${t}"))`,
        )
      // A year-old database has been analysed by autovacuum many times over.
      await client.query('analyze')
    },
    close: () => client.end(),
  }
}
