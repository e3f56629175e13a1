import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { ADDRESS_INDEX_COUNTER } from '../../src/db/counters'
import { engineOf } from '../../src/db/engine'
import type { Order, Product } from '../../src/payload-types'
import { api, productIdOf, SHIPPING } from '../support/shopApi'
import { runSql, watchOwnTransactions } from '../support/sql'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * Checkout stores its order in one SQLite (or PostgreSQL) transaction without Payload's create
 * (decisions 014, 022). The row it writes must be the row Payload's create writes from the same
 * fields: every column, the defaults of the collection included. A field added to Orders with a
 * default, or a rule of a new order changed in one place only, fails here.
 */

let shop: TestShop

beforeAll(async () => {
  // The generated checkouts below come from one client, many per second.
  shop = await startTestShop({ env: { ORDER_CREATE_RATE_LIMIT: '100000' } })
})

afterAll(async () => {
  await shop?.close()
})

/**
 * Both engines write the checkouts that come together in one group, one transaction, in the
 * order they came (decisions 014, 022). On PostgreSQL the transaction's own statements are seen
 * too: BEGIN, the address counter's row locked first, COMMIT (SQLite's client begins and commits
 * unseen).
 */
const frame = () => (engineOf(shop.payload) === 'postgres' ? 3 : 0)

/** Set per order by the store itself (identity, address, clock), never by checkout's fields. */
const PER_ORDER_COLUMNS = ['id', 'payment_address', 'address_index', 'created_at', 'updated_at']
const PER_ORDER_FIELDS = ['id', 'paymentAddress', 'addressIndex', 'createdAt', 'updatedAt']

async function rowOf(id: string): Promise<Record<string, unknown>> {
  const [row] = await runSql(shop.payload, 'SELECT * FROM orders WHERE id = ?', [id])
  if (!row) throw new Error(`no row for order ${id}`)
  return row
}

const without = (record: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)))

async function counterValue(): Promise<number> {
  const [row] = await runSql(shop.payload, 'SELECT value FROM counters WHERE name = ?', [
    ADDRESS_INDEX_COUNTER,
  ])
  return Number(row?.value ?? 0)
}

/** A printed book with `copies` copies, and the fields checkout would decide for an order of it. */
async function printedBook(name: string, copies: number, userEmail: string) {
  const product = (await shop.payload.create({
    collection: slugs.products,
    data: { name, type: 'PHYSICAL', priceEUR: 5, totalStock: copies, currentStock: copies },
  })) as Product
  const fields = {
    product: product.id,
    productName: product.name,
    productType: 'PHYSICAL' as const,
    userEmail,
    priceAtPurchaseUSD: 5,
    bsvUsdRateAtPurchase: 40,
    amountSatoshiExpected: 12_500_000,
    gatewayExpiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
  }
  return { product, fields }
}

/** The same order stored by Payload's create, from the fields checkout decided. */
async function storedByPayload(order: Order): Promise<Order> {
  const index = (await counterValue()) + 1_000
  const { history: _history, payments: _payments, ...rest } = order
  const fields = without(rest as Record<string, unknown>, [...PER_ORDER_FIELDS, 'status'])
  // Only what checkout decides; the defaults (status, flags, amount received) are Payload's.
  for (const key of ['amountSatoshiReceived', 'flags']) delete fields[key]
  return (await shop.payload.create({
    collection: slugs.orders,
    depth: 0,
    data: {
      ...fields,
      clientKey: (await rowOf(order.id)).client_key,
      addressIndex: index,
      paymentAddress: `payload-create-${index}`,
    } as never,
  })) as Order
}

/** An order's "order created" message: its outbox row and its job's row, as stored. */
async function queuedMessageOf(orderId: string) {
  const [outbox] = await runSql(shop.payload, 'SELECT * FROM email_outbox WHERE key = ?', [
    `order-created:${orderId}`,
  ])
  if (!outbox) throw new Error(`no e-mail for order ${orderId}`)
  const jobs = await runSql(shop.payload, 'SELECT * FROM payload_jobs WHERE task_slug = ?', [
    'send-email',
  ])
  const job = jobs.find((row) => {
    const input = typeof row.input === 'string' ? JSON.parse(row.input) : row.input
    return (input as { outboxId?: string } | null)?.outboxId === String(outbox.id)
  })
  if (!job) throw new Error(`no job for the e-mail of order ${orderId}`)
  return { outbox, job }
}

/** How a time is stored: a Date (PostgreSQL), or ISO text with milliseconds (SQLite). */
const stamp = (value: unknown) =>
  value instanceof Date
    ? 'Date'
    : /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(String(value))
      ? 'ISO text'
      : String(value)

describe("checkout's order row", () => {
  for (const type of ['PHYSICAL', 'DIGITAL'] as const) {
    it(`is the row Payload's create writes (${type})`, async () => {
      const productId = await productIdOf(shop.payload, type)
      const created = await api(shop, '/api/orders/create', {
        body: {
          productId,
          userEmail: 'row@example.com',
          tokenAddress: 'alias@example.com',
          ...(type === 'PHYSICAL' ? SHIPPING : {}),
        },
      })
      expect(created.status).toBe(201)
      const id = String(created.body.orderId)
      const ours = (await shop.payload.findByID({
        collection: slugs.orders,
        id,
        depth: 0,
      })) as Order
      expect(ours.status).toBe('AWAITING_PAYMENT')
      expect(ours.id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      )
      expect(ours.stockReleasedAt ?? null).toBeNull()

      const theirs = await storedByPayload(ours)
      expect(without(await rowOf(theirs.id), PER_ORDER_COLUMNS)).toEqual(
        without(await rowOf(id), PER_ORDER_COLUMNS),
      )
      const again = (await shop.payload.findByID({
        collection: slugs.orders,
        id: theirs.id,
        depth: 0,
      })) as Order
      expect(without(again as never, PER_ORDER_FIELDS)).toEqual(
        without(ours as never, PER_ORDER_FIELDS),
      )
    })
  }

  it('holds the buyer\'s "order created" e-mail and its job: the rows Payload\'s outbox writes', async () => {
    // Checkout queues the message in the order's own write, with plain statements; an order
    // created through Payload gets it from the Orders collection's create hook, through the
    // outbox collection and Payload's jobs.queue. The worker's job runner must take either.
    const productId = await productIdOf(shop.payload, 'DIGITAL')
    const created = await api(shop, '/api/orders/create', {
      body: { productId, userEmail: 'mail-row@example.com' },
    })
    expect(created.status).toBe(201)
    const id = String(created.body.orderId)
    const theirs = await storedByPayload(
      (await shop.payload.findByID({ collection: slugs.orders, id, depth: 0 })) as Order,
    )
    const ours = await queuedMessageOf(id)
    const payloads = await queuedMessageOf(theirs.id)
    expect(ours.outbox).toMatchObject({
      key: `order-created:${id}`,
      kind: 'order-created',
      order_id: id,
      to: 'mail-row@example.com',
      status: 'pending',
    })
    expect(payloads.outbox).toMatchObject({ key: `order-created:${theirs.id}` })
    const perRow = ['id', 'key', 'order_id', 'input', 'created_at', 'updated_at']
    expect(without(ours.outbox, perRow)).toEqual(without(payloads.outbox, perRow))
    expect(without(ours.job, perRow)).toEqual(without(payloads.job, perRow))
    for (const { outbox, job } of [ours, payloads]) {
      // The job's input as each engine stores it: JSON text on SQLite, jsonb on PostgreSQL.
      const input = { outboxId: String(outbox.id) }
      expect(job.input).toEqual(engineOf(shop.payload) === 'sqlite' ? JSON.stringify(input) : input)
      expect(
        [outbox.created_at, outbox.updated_at, job.created_at, job.updated_at].map(stamp),
      ).toEqual(Array.from({ length: 4 }, () => stamp(payloads.job.created_at)))
    }
    // The job runner takes checkout's job as it takes Payload's: each message is sent.
    for (const { outbox, job } of [ours, payloads]) {
      await shop.payload.jobs.runByID({ id: job.id as number, silent: true })
      const [row] = await runSql(shop.payload, 'SELECT status FROM email_outbox WHERE id = ?', [
        outbox.id as number,
      ])
      expect(row?.status).toBe('sent')
    }
  })

  it('queues at most EMAILS_PER_ADDRESS_PER_HOUR e-mails to one address an hour, however many checkouts come at once', async () => {
    // Anyone can type any address at checkout. Each checkout beyond the limit is stored all the
    // same, without its e-mail; the group's messages take three statements in all.
    const { fields } = await printedBook('Ten at once', 11, 'ten@example.com')
    const { storeNewOrder } = await import('../../src/db/storeNewOrder')
    const store = (name: string) =>
      storeNewOrder({
        payload: shop.payload,
        fields,
        addressFor: (index) => `${name}-${index}`,
        createdEmail: { perAddressPerHour: 3 },
      })
    const watch = watchOwnTransactions(shop.payload)
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store(`ten-${i}`)),
    ).finally(() => watch.restore())
    const ids = outcomes.map((o) => (o && 'orderId' in o ? o.orderId : null))
    expect(ids.filter(Boolean)).toHaveLength(10)
    const mailed = async () =>
      (
        await runSql(
          shop.payload,
          `SELECT id, order_id FROM email_outbox WHERE "to" = ? AND kind = 'order-created'
           ORDER BY id`,
          ['ten@example.com'],
        )
      ).map((row) => ({ id: String(row.id), order: String(row.order_id) }))
    const messages = await mailed()
    expect(messages).toHaveLength(3)
    // Each with its job.
    for (const { order } of messages) await queuedMessageOf(order)
    // One group: its first three orders have the messages.
    expect(watch.count).toBe(1)
    expect(messages.map((m) => m.order)).toEqual(ids.slice(0, 3))
    // The savepoint, the shelf, the copies, the index, the rows, the release; the count, the
    // messages, their jobs.
    expect(watch.statements.length).toBeLessThanOrEqual(9 + frame())

    // An hour later, the address may have another one.
    await runSql(shop.payload, `UPDATE email_outbox SET created_at = ? WHERE "to" = ?`, [
      new Date(Date.now() - 3_600_000 - 1_000).toISOString(),
      'ten@example.com',
    ])
    const later = await store('later')
    expect(later).toEqual({ orderId: expect.any(String) })
    expect((await mailed()).map((m) => m.order)).toContain((later as { orderId: string }).orderId)
  })

  it('takes nothing when the last copy went meanwhile: no order, no copy, no index spent', async () => {
    const { product, fields } = await printedBook('Last copy', 1, 'last@example.com')
    const { storeNewOrder } = await import('../../src/db/storeNewOrder')
    const before = await counterValue()
    const first = await storeNewOrder({
      payload: shop.payload,
      fields,
      addressFor: (index) => `first-${index}`,
    })
    expect(first).not.toBeNull()
    expect(await counterValue()).toBe(before + 1)

    const ordersBefore = await shop.payload.count({ collection: slugs.orders })
    const second = await storeNewOrder({
      payload: shop.payload,
      fields,
      addressFor: (index) => `second-${index}`,
    })
    expect(second).toBeNull()
    expect(await counterValue()).toBe(before + 1)
    expect((await shop.payload.count({ collection: slugs.orders })).totalDocs).toBe(
      ordersBefore.totalDocs,
    )
    const after = (await shop.payload.findByID({
      collection: slugs.products,
      id: product.id,
    })) as Product
    expect(after.currentStock).toBe(0)
  })

  it('leaves nothing behind when the address cannot be derived', async () => {
    const productId = await productIdOf(shop.payload, 'DIGITAL')
    const { storeNewOrder } = await import('../../src/db/storeNewOrder')
    const stockBefore = (
      (await shop.payload.findByID({ collection: slugs.products, id: productId })) as Product
    ).currentStock
    const before = await counterValue()
    await expect(
      storeNewOrder({
        payload: shop.payload,
        fields: {
          product: productId,
          productName: 'PDF',
          productType: 'DIGITAL',
          userEmail: 'broken@example.com',
          priceAtPurchaseUSD: 5,
          bsvUsdRateAtPurchase: 40,
          amountSatoshiExpected: 12_500_000,
          gatewayExpiresAt: new Date().toISOString(),
        },
        addressFor: () => {
          throw new RangeError('no address')
        },
      }),
    ).rejects.toThrow('no address')
    expect(await counterValue()).toBe(before)
    expect(
      ((await shop.payload.findByID({ collection: slugs.products, id: productId })) as Product)
        .currentStock,
    ).toBe(stockBefore)
  })

  it('commits the checkouts that come together at once, each with its own outcome', async () => {
    // A commit of its own per checkout, each fsync blocking the web process, would be a fifth of
    // its time under 50 buyers. Those that come together share one commit, and one of them
    // failing or finding no copy left changes nothing for the others.
    const { product, fields } = await printedBook('Three copies', 3, 'together@example.com')
    const { storeNewOrder } = await import('../../src/db/storeNewOrder')
    const transactions = watchOwnTransactions(shop.payload)
    const before = await counterValue()
    const names = ['a', 'broken', 'b', 'c', 'd', 'e']
    const outcomes = await Promise.allSettled(
      names.map((name) =>
        storeNewOrder({
          payload: shop.payload,
          fields,
          addressFor: (index) => {
            if (name === 'broken') throw new RangeError('no address')
            return `together-${name}-${index}`
          },
        }),
      ),
    )
    const writes = transactions.count
    transactions.restore()
    const stored = outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'failed'))
    const kinds = stored.map((s) => (s && s !== 'failed' ? 'order' : s))
    // Three indexes taken, in order, none for the failed or refused ones.
    expect(await counterValue()).toBe(before + 3)
    const rows = await runSql(
      shop.payload,
      'SELECT payment_address, address_index FROM orders WHERE product_id = ? ORDER BY address_index',
      [Number(product.id)],
    )
    const addresses = rows.map((r) => [r.payment_address, Number(r.address_index)])
    expect(writes).toBe(1)
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ])
    expect(kinds).toEqual(['order', 'failed', 'order', 'order', null, null])
    expect(addresses).toEqual([
      [`together-a-${before}`, before],
      [`together-b-${before + 1}`, before + 1],
      [`together-c-${before + 2}`, before + 2],
    ])
    const after = (await shop.payload.findByID({
      collection: slugs.products,
      id: product.id,
    })) as Product
    expect(after.currentStock).toBe(0)
  })
  it('writes a group in a few statements whatever its size, the copies going in request order', async () => {
    // Five statements of its own per checkout in the group's transaction (a savepoint, the
    // index, the row, the copy, a release) made SQLite's calls a quarter of the web process's
    // time under a rush. A group of 25 for two books takes eight.
    const scarce = await printedBook('Three left', 3, 'scarce@example.com')
    const plenty = await printedBook('Plenty left', 100, 'plenty@example.com')
    const { storeNewOrder } = await import('../../src/db/storeNewOrder')
    const watch = watchOwnTransactions(shop.payload)
    const { statements } = watch
    const before = await counterValue()
    const books = Array.from({ length: 25 }, (_, i) => (i % 5 === 0 ? scarce : plenty))
    const outcomes = await Promise.all(
      books.map((book, i) =>
        storeNewOrder({
          payload: shop.payload,
          fields: book.fields,
          addressFor: (index) => `group-${i}-${index}`,
        }),
      ),
    ).finally(() => watch.restore())
    const kinds = outcomes.map((o) => (o ? 'order' : null))
    // 23 indexes, one for each order stored.
    expect(await counterValue()).toBe(before + 23)
    const rows = await runSql(
      shop.payload,
      `SELECT id, payment_address, address_index FROM orders WHERE product_id IN (?, ?)
            ORDER BY address_index`,
      [Number(scarce.product.id), Number(plenty.product.id)],
    )
    const sold = outcomes.flatMap((o, i) => (o ? [{ id: o.orderId, i }] : []))
    const written = rows.map((r) => [r.id, r.payment_address, Number(r.address_index)])
    expect(watch.count).toBe(1)
    expect(statements.length).toBeLessThanOrEqual(8 + frame())
    // The scarce book's first three checkouts get its copies; the two after find none left.
    expect(kinds).toEqual(books.map((book, i) => (book === scarce && i >= 15 ? null : 'order')))
    // The indexes in the order the checkouts came.
    expect(written).toEqual(
      sold.map(({ id, i }, k) => [id, `group-${i}-${before + k}`, before + k]),
    )
    const stock = async (book: typeof scarce) =>
      (
        (await shop.payload.findByID({
          collection: slugs.products,
          id: book.product.id,
        })) as Product
      ).currentStock
    expect(await stock(scarce)).toBe(0)
    expect(await stock(plenty)).toBe(80)
  })

  it('answers every checkout of a group whose transaction cannot begin, and goes on after', async () => {
    const { product, fields } = await printedBook('Two copies', 2, 'unlucky@example.com')
    const { storeNewOrder } = await import('../../src/db/storeNewOrder')
    let broken = true
    const transactions = watchOwnTransactions(shop.payload, async () => {
      if (broken) throw new Error('database is locked')
    })
    const store = () =>
      storeNewOrder({ payload: shop.payload, fields, addressFor: (index) => `unlucky-${index}` })
    try {
      // Both hear why, neither waits for ever, and nothing is taken.
      const outcomes = await Promise.allSettled([store(), store()])
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected'])
      // One transaction for the group.
      expect(transactions.count).toBe(1)
      broken = false
      // The next checkout is written as usual.
      expect(await store()).toEqual({ orderId: expect.any(String) })
    } finally {
      transactions.restore()
    }
    const after = (await shop.payload.findByID({
      collection: slugs.products,
      id: product.id,
    })) as Product
    expect(after.currentStock).toBe(1)
  })
})

describe("what checkout accepts, Payload's validation of every field accepts", () => {
  /**
   * Checkout writes its row without Payload's create, so Payload never validates it: data that
   * checkout accepted and Payload refused (an e-mail like `bad;mail@b.co`) stopped the payment
   * worker at the order's next save. Whatever checkout accepts here must pass Payload's create
   * with the same fields, which runs every field's validation of the Orders collection.
   */
  const char = (chars: string) => fc.constantFrom(...chars)
  const text = (maxLength: number) =>
    fc.oneof(
      fc.string({ maxLength }),
      fc.string({ unit: char(' aZ09.,;:-_/\'"#&()+@\tüß漢'), maxLength }),
      fc.string({ unit: 'grapheme', maxLength: Math.min(maxLength, 40) }),
    )
  const oddEmail = fc
    .tuple(
      fc.string({
        unit: char('abz09._-+;,!#$%&\'*/=?^`{|}~"()<>[]:\\ü '),
        minLength: 1,
        maxLength: 12,
      }),
      fc.string({ unit: char('abz09.-_ü'), minLength: 1, maxLength: 12 }),
      fc.constantFrom('co', 'de', 'c', 'com', 'x1', 'ü'),
    )
    .map(([local, domain, tld]) => `${local}@${domain}.${tld}`)
  /** Mostly what a buyer types, sometimes anything: both sides of each rule are tried. */
  const mostly = <T, U>(usual: fc.Arbitrary<T>, odd: fc.Arbitrary<U>) =>
    fc.oneof({ weight: 3, arbitrary: usual }, { weight: 1, arbitrary: odd })
  const filled = (maxLength: number) =>
    mostly(
      fc.constantFrom('Ada Lovelace', '1 Analytical St.', 'Zoë-Ann', 'N1 1AA'),
      text(maxLength),
    )
  const email = fc.oneof(
    { weight: 2, arbitrary: fc.emailAddress() },
    oddEmail,
    fc.constantFrom('bad;mail@b.co', 'a..b@c.de', 'a,b@c.de', ` Buyer@Example.COM `),
  )
  const request = fc.record({
    type: fc.constantFrom('PHYSICAL', 'DIGITAL'),
    userEmail: email,
    tokenAddress: mostly(
      fc.constantFrom(null, '', ' alias@example.com ', 'mhJZ8Vmt8rsCdtVuGHXkSebyusyNLUbEiA'),
      text(60),
    ),
    shippingName: filled(200),
    shippingAddressLine1: filled(300),
    shippingAddressLine2: fc.oneof(fc.constant(null), text(300)),
    shippingCity: filled(200),
    shippingStateProvince: fc.oneof(fc.constant(null), text(200)),
    shippingPostalCode: filled(40),
    shippingCountry: mostly(
      fc.constantFrom('United Kingdom', 'de', ' FRANCE ', 'usa', 'Côte d’Ivoire'),
      fc.oneof(fc.constantFrom('Narnia', ''), text(100)),
    ),
    shippingPhone: mostly(
      fc.constantFrom('', '+44 20 7946 0958', ' (020) 7946-0958 ', '12345'),
      text(60),
    ),
  })

  it('for generated checkouts: odd e-mails, token addresses and shipping details', async () => {
    const { product: printed } = await printedBook('Any request', 1_000, 'unused@example.com')
    const digitalId = await productIdOf(shop.payload, 'DIGITAL')
    const outcomes = { accepted: 0, refused: 0 }
    const odd = { ...SHIPPING, tokenAddress: null, type: 'DIGITAL' as const }
    await fc.assert(
      fc.asyncProperty(request, async ({ type, ...fields }) => {
        const productId = type === 'PHYSICAL' ? printed.id : digitalId
        const created = await api(shop, '/api/orders/create', { body: { productId, ...fields } })
        if (created.status !== 201) {
          // Refused as a buyer's mistake, never a failure of the shop.
          expect(created.status, JSON.stringify(created.body)).toBe(400)
          outcomes.refused += 1
          return
        }
        outcomes.accepted += 1
        const ours = (await shop.payload.findByID({
          collection: slugs.orders,
          id: String(created.body.orderId),
          depth: 0,
        })) as Order
        await storedByPayload(ours)
      }),
      {
        numRuns: 120,
        endOnFailure: true,
        examples: [
          [{ ...odd, userEmail: 'bad;mail@b.co' }],
          [{ ...odd, userEmail: 'a..b@c.de' }],
          [{ ...odd, userEmail: 'a,b@c.de' }],
        ],
      },
    )
    // The run tried both sides of the rules.
    expect(outcomes.accepted).toBeGreaterThan(10)
    expect(outcomes.refused).toBeGreaterThan(10)
  })
})

describe("checkout's read of the product it sells", () => {
  it("is Payload's read of the same product, for every kind of product", async () => {
    const { productForCheckout } = await import('../../src/db/productForCheckout')
    const make = async (data: Record<string, unknown>) =>
      String(
        (
          (await shop.payload.create({
            collection: slugs.products,
            data: { name: 'Read me', totalStock: 3, currentStock: 3, ...data } as never,
          })) as Product
        ).id,
      )
    const ids = [
      await make({ type: 'PHYSICAL', priceEUR: 12.34, shippingCostEUR: 4.5 }),
      await make({ type: 'PHYSICAL', priceEUR: 9.99, isAvailable: false }),
      await make({ type: 'PHYSICAL', priceEUR: 20, deletedAt: new Date().toISOString() }),
      await make({ type: 'PHYSICAL', priceEUR: 15, currentStock: 0 }),
      await productIdOf(shop.payload, 'DIGITAL'),
    ]
    // A book imported from the old shop, typed PDF in the database, with no shipping cost.
    // (PostgreSQL's column is an enum of today's types: it holds no PDF.)
    const legacy = await make({ type: 'PHYSICAL', priceEUR: 5 })
    const legacyType = engineOf(shop.payload) === 'sqlite' ? "type = 'PDF', " : ''
    await runSql(
      shop.payload,
      `UPDATE products SET ${legacyType}shipping_cost_e_u_r = NULL WHERE id = ?`,
      [Number(legacy)],
    )
    for (const id of [...ids, legacy]) {
      const ours = await productForCheckout(shop.payload, id)
      const payloads = (await shop.payload.findByID({
        collection: slugs.products,
        id,
        depth: 0,
      })) as Product
      expect(ours).toEqual(
        Object.fromEntries(Object.keys(ours ?? {}).map((key) => [key, payloads[key as never]])),
      )
      expect(Object.keys(ours ?? {})).toHaveLength(8)
    }
    expect(await productForCheckout(shop.payload, '999999')).toBeNull()
    expect(await productForCheckout(shop.payload, 'not-an-id')).toBeNull()
  })
})
