import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import { createLocalReq } from 'payload'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { normalizeProductType, ORDER_STATUSES } from '@shop/domain'

import { slugs } from '../../src/collections/slugs'
import { fromRoot } from '../../src/config/paths'
import { sqlite } from '../../src/db/engine'
import { queueOrderShippedEmail } from '../../src/email/queueOrderShippedEmail'
import { createDownloadToken } from '../../src/operations/fulfilment/downloadTokens'
import { queueWebhook } from '../../src/operations/webhooks/webhooks'
import type { AdminClient } from '../admin/client'
import { signedIn, signedInNewAdmin } from '../admin/client'
import { OWNER } from '../admin/fixtures'
import type { TestPostgres } from '../support/postgres'
import { startPostgres } from '../support/postgres'
import { api, createOrder, getOrder, productIdOf } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import { startWebProcess } from '../support/webProcess'

/**
 * `npm run db:copy`: a SQLite shop with orders in every status, their payments and history, a
 * download token, staff and site texts, copied by the CLI (a child process, as an owner runs
 * it) into a fresh PostgreSQL database; then a shop on the copy answers the admin's order list as
 * the SQLite one does, and its next order takes the next address index. A target that is not
 * empty is refused with exit code 2 and left as it was.
 */

const SECRET = 'test-secret-test-secret-test-secret-0123'
let shop: TestShop
let admin: AdminClient
let target: TestPostgres
const orderIds: string[] = []

type Run = { code: number | null; stdout: string; stderr: string }

/** `npm run db:copy -- --from ... --to ...`, through run-entry.mjs as package.json has it. */
function dbCopy(from: string, to: string): Promise<Run> {
  const child = spawn(
    process.execPath,
    [fromRoot('scripts/run-entry.mjs'), 'db-copy', '--from', from, '--to', to],
    {
      cwd: fromRoot(),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        DATA_DIR: shop.dataDir,
        PAYLOAD_SECRET: SECRET,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })))
}

async function onTarget<T extends Record<string, unknown>>(
  sql: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: target.uri })
  await client.connect()
  try {
    return (await client.query(sql, values)).rows as T[]
  } finally {
    await client.end()
  }
}

/** A status reached the way the worker or the owner leaves it: the row and a history entry. */
async function moveTo(id: string, status: string, extra: Record<string, unknown> = {}) {
  const order = await getOrder(shop.payload, id)
  await shop.payload.db.updateOne({
    collection: slugs.orders,
    where: { id: { equals: id } },
    data: { status, ...extra },
  })
  // The history row as Payload writes an array entry (db.updateOne would need the whole order).
  await sqlite(shop.payload).execute({
    sql: `INSERT INTO orders_history (_order, _parent_id, id, at, by, action, from_status, to_status, note)
          VALUES (?, ?, ?, ?, 'test', 'status', ?, ?, ?)`,
    args: [
      (order.history?.length ?? 0) + 1,
      id,
      crypto.randomBytes(12).toString('hex'),
      new Date().toISOString(),
      order.status,
      status,
      `moved to ${status}`,
    ],
  })
}

async function pay(orderId: string, n: number, extra: Record<string, unknown> = {}) {
  const txid = n.toString(16).padStart(64, 'a')
  await shop.payload.create({
    collection: slugs.payments,
    data: {
      outpoint: `${txid}:0`,
      order: orderId,
      txid,
      vout: 0,
      satoshis: 25_000_000 + n,
      address: `1Pay${n}`,
      seenAt: new Date(Date.now() - n * 1000).toISOString(),
      ...extra,
    },
  })
}

beforeAll(async () => {
  shop = await startTestShop({ engine: 'sqlite' })
  admin = await signedInNewAdmin(shop, OWNER)
  const printed = await productIdOf(shop.payload, 'PHYSICAL')
  const pdf = await productIdOf(shop.payload, 'DIGITAL')
  for (const [n, status] of ORDER_STATUSES.entries()) {
    const id = await createOrder(shop, n % 2 ? pdf : printed, {
      userEmail: `buyer${n}@example.com`,
    })
    orderIds.push(id)
    if (status !== 'AWAITING_PAYMENT')
      await moveTo(id, status, {
        flags: { paidLate: n === 3, paidOver: n === 4 },
        ...(status === 'SHIPPED' ? { shippingTrackingNumber: 'RR123' } : {}),
      })
    if (['PAYMENT_DETECTED', 'UNDERPAID', 'PAID', 'SHIPPED'].includes(status))
      await pay(id, n, {
        late: n === 3,
        confirmedAt: new Date().toISOString(),
        blockHeight: 800_000 + n,
        spends: [{ txid: 'ab'.repeat(32), vout: n }],
      })
  }
  // A paid PDF order with its download token: the order and the token refer to each other.
  const paidPdf = await createOrder(shop, pdf, { userEmail: 'reader@example.com' })
  orderIds.push(paidPdf)
  await moveTo(paidPdf, 'PAID')
  const token = await createDownloadToken({
    payload: shop.payload,
    orderId: paidPdf,
    productId: pdf,
    ttlHours: 72,
    maxUses: 5,
  })
  await shop.payload.db.updateOne({
    collection: slugs.orders,
    where: { id: { equals: paidPdf } },
    data: { downloadToken: token.id },
  })
  // An e-mail in the outbox and a webhook delivery, as the status seam queues them.
  await queueOrderShippedEmail({ payload: shop.payload, orderId: orderIds[5]! })
  await queueWebhook({
    payload: shop.payload,
    req: await createLocalReq({}, shop.payload),
    event: 'OrderPaid',
    order: await getOrder(shop.payload, orderIds[3]!),
  })
  // Rows imported from the old shop: a retired EPUB book and orders typed PDF and EPUB. SQLite
  // keeps any text; PostgreSQL's enum of product types holds only DIGITAL and PHYSICAL.
  await sqlite(shop.payload).execute({
    sql: `INSERT INTO products (id, name, type, price_e_u_r, total_stock, current_stock, is_available, deleted_at)
          VALUES (9000, 'The first edition', 'EPUB', 9, 0, 0, 0, ?)`,
    args: [new Date().toISOString()],
  })
  for (const [i, legacy] of [
    [1, 'PDF'],
    [3, 'EPUB'],
  ] as const)
    await sqlite(shop.payload).execute({
      sql: 'UPDATE orders SET product_type = ? WHERE id = ?',
      args: [legacy, orderIds[i]!],
    })
  target = await startPostgres()
})

afterAll(async () => {
  await target?.stop()
  await shop?.close()
})

/** The pg column types of a table, to compare SQLite's values with PostgreSQL's. */
async function typesOf(table: string): Promise<Map<string, string>> {
  const rows = await onTarget<{ column_name: string; data_type: string }>(
    `SELECT column_name, data_type FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = $1`,
    [table],
  )
  return new Map(rows.map((r) => [r.column_name, r.data_type]))
}

function comparable(value: unknown, type: string | undefined, column: string): unknown {
  if (value === null || value === undefined) return null
  // A legacy product type (PDF, EPUB) arrives as the type the domain reads it as.
  if (column === 'product_type' || column === 'type') return normalizeProductType(value) ?? value
  if (type === 'boolean') return typeof value === 'boolean' ? value : Number(value) !== 0
  if (type === 'numeric' || type === 'integer') return Number(value)
  if (type?.startsWith('timestamp')) return new Date(value as string).toISOString()
  if (type === 'jsonb') return typeof value === 'string' ? JSON.parse(value) : value
  return String(value)
}

/** Every row of a table on both sides, in the same shape. */
async function rowsOnBoth(table: string) {
  const types = await typesOf(table)
  const shape = (rows: Record<string, unknown>[]) =>
    rows.map((row) =>
      Object.fromEntries(
        [...types.keys()].map((column) => [
          column,
          comparable(row[column], types.get(column), column),
        ]),
      ),
    )
  const fromSqlite = await sqlite(shop.payload).execute(`SELECT * FROM "${table}" ORDER BY id`)
  const fromPostgres = await onTarget(`SELECT * FROM "${table}" ORDER BY id`)
  return {
    sqlite: shape(fromSqlite.rows as unknown as Record<string, unknown>[]),
    postgres: shape(fromPostgres),
  }
}

/** The web process (test mode, nothing seeded or pushed) on the copied database. */
const shopOnCopy = () =>
  startWebProcess({
    env: () => ({
      NODE_ENV: 'test',
      DATA_DIR: shop.dataDir,
      DATABASE_URI: target.uri,
      DB_PUSH: 'false',
      SEED: 'never',
      PAYLOAD_SECRET: SECRET,
      MAX_OPEN_ORDERS_PER_CLIENT: '100000',
      MAX_OPEN_ORDERS_PER_EMAIL: '100000',
    }),
  })

const COPIED = [
  'orders',
  'products',
  'orders_history',
  'payments',
  'download_tokens',
  'counters',
  'staff',
  'email_outbox',
  'webhook_deliveries',
]

describe('npm run db:copy', () => {
  let copy: Run

  it('copies every table into an empty PostgreSQL database, ids and rows kept', async () => {
    copy = await dbCopy(shop.databaseUri, target.uri)
    expect(copy.code, copy.stderr + copy.stdout).toBe(0)
    for (const table of COPIED) {
      const { sqlite: before, postgres: after } = await rowsOnBoth(table)
      expect(before.length, table).toBeGreaterThan(0)
      expect(after, table).toEqual(before)
    }
    // Every status arrived, history and payments with them.
    const statuses = await onTarget<{ status: string }>('SELECT DISTINCT status FROM orders')
    expect(statuses.map((s) => s.status).sort()).toEqual([...ORDER_STATUSES].sort())
    // The printed counts: the same number on both sides, for every copied table.
    for (const table of [...COPIED, 'products', 'landing_faqs_items', 'papers', 'media']) {
      const line = new RegExp(`^\\s+${table}\\s+(\\d+)\\s+(\\d+)$`, 'm').exec(copy.stdout)
      expect(line, `${table} in:\n${copy.stdout}`).not.toBeNull()
      expect(Number(line![1]), table).toBeGreaterThan(0)
      expect(line![2], table).toBe(line![1])
    }
    expect(copy.stdout).toMatch(/not copied: leases/)
    // The old shop's types arrive as the enum spells them, the rest of each row as it was.
    expect(await onTarget('SELECT type, name FROM products WHERE id = 9000')).toEqual([
      { type: 'DIGITAL', name: 'The first edition' },
    ])
    const legacyOrders = await onTarget<{ product_type: string }>(
      'SELECT product_type FROM orders WHERE id = ANY($1) ORDER BY product_type',
      [[orderIds[1], orderIds[3]]],
    )
    expect(legacyOrders.map((o) => o.product_type)).toEqual(['DIGITAL', 'DIGITAL'])
    // New rows get fresh ids: each id sequence continues after the copied ids.
    for (const table of ['payments', 'download_tokens', 'staff', 'email_outbox', 'products']) {
      const [row] = await onTarget<{ next: number; highest: number }>(
        `SELECT nextval(pg_get_serial_sequence('${table}', 'id'))::int AS next,
                (SELECT max(id) FROM ${table})::int AS highest`,
      )
      expect(row!.next, table).toBe(row!.highest + 1)
    }
  })

  it('leaves a shop on the copy answering as the SQLite one, its next order on the next address index', async () => {
    expect(copy.code).toBe(0)
    const copied = await shopOnCopy()
    try {
      const owner = await signedIn(copied.url, OWNER.email, OWNER.password)
      for (const query of ['', '?status=PAID', `?q=${orderIds[3]!.slice(0, 8)}`]) {
        const [fromSqlite, fromPostgres] = await Promise.all(
          [admin, owner].map(async (client) => {
            const response = await client.request('GET', `/orders${query}`)
            expect(response.status, query).toBe(200)
            return response.json()
          }),
        )
        expect((fromSqlite as { orders: unknown[] }).orders.length, query).toBeGreaterThan(0)
        expect(fromPostgres, query).toEqual(fromSqlite)
      }
      // The counter holds the next address index (checkout takes it and adds one).
      const counter = await onTarget<{ value: string }>(
        "SELECT value FROM counters WHERE name = 'address-index'",
      )
      const highest = await onTarget<{ n: number }>(
        'SELECT max(address_index)::int AS n FROM orders',
      )
      const created = await api({ url: copied.url } as TestShop, '/api/orders/create', {
        body: {
          productId: await productIdOf(shop.payload, 'DIGITAL'),
          userEmail: 'next@example.com',
          tokenAddress: null,
        },
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const next = await onTarget<{ address_index: string }>(
        'SELECT address_index FROM orders WHERE id = $1',
        [created.body.orderId],
      )
      expect(Number(next[0]!.address_index)).toBe(Number(counter[0]!.value))
      expect(Number(next[0]!.address_index)).toBe(highest[0]!.n + 1)
    } finally {
      await copied.stop()
    }
  })

  it('refuses a target that is not empty, with exit code 2, writing nothing', async () => {
    const countsOf = async () =>
      onTarget<{ orders: number; products: number; history: number; staff: number }>(
        `SELECT (SELECT count(*)::int FROM orders) AS orders,
                (SELECT count(*)::int FROM products) AS products,
                (SELECT count(*)::int FROM orders_history) AS history,
                (SELECT count(*)::int FROM staff) AS staff`,
      )
    const before = await countsOf()
    expect(before[0]!.orders).toBeGreaterThan(0)
    const again = await dbCopy(shop.databaseUri, target.uri)
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/is not empty \(.*orders: \d+.*\).*Nothing was written/)
    expect(await countsOf()).toEqual(before)
  })
})
