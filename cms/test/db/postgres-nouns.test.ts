import { commitTransaction, createLocalReq, initTransaction, killTransaction } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { openVersionReader } from '../../src/db/catalogueVersion'
import { ADDRESS_INDEX_COUNTER, claimAddressIndex } from '../../src/db/counters'
import { consumeDownloadUse } from '../../src/db/downloadTokens'
import { engineOf, postgres } from '../../src/db/engine'
import { claimLease, releaseLease } from '../../src/db/leases'
import { countWaitingOrders, waitingCountsOf, waitingOrdersColumns } from '../../src/db/openOrders'
import { ordersHoldingLiterally } from '../../src/db/orderSearch'
import { productForCheckout } from '../../src/db/productForCheckout'
import { countRateLimitHit, resetRateLimit, sweepRateLimits } from '../../src/db/rateLimits'
import { clearSignInTurns, reserveSignInTurn } from '../../src/db/signIn'
import { releaseReservedStock, reserveStock, reserveStockForOrder } from '../../src/db/stock'
import type { NewOrderFields } from '../../src/db/storeNewOrder'
import { storeNewOrder } from '../../src/db/storeNewOrder'
import { orderFields } from '../support/postgresRaces'
import { watchStatements } from '../support/sql'
import { createPrintedBook, getOrder } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * Every noun of cms/src/db on a real PostgreSQL server (a throwaway cluster), with the guarantee
 * each one documents, raced by many callers at once. Each call runs on its own pooled
 * connection, so the races are between database sessions, as between two processes.
 */
let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop({ engine: 'postgres', seed: false })
})

afterAll(async () => {
  await shop?.close()
})

const many = <T>(count: number, call: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: count }, (_, i) => call(i)))

const stockOf = async (id: number) =>
  Number(
    (await shop.payload.findByID({ collection: slugs.products, id, depth: 0 })).currentStock ?? 0,
  )

let orderNumber = 0
/** A new buyer's order each time: its own e-mail and client. */
const newOrder = (product: number, extra: Partial<NewOrderFields> = {}): NewOrderFields => {
  orderNumber += 1
  return orderFields(product, {
    userEmail: `buyer${orderNumber}@example.com`,
    clientKey: `client-${orderNumber}`,
    ...extra,
  })
}

const store = (fields: NewOrderFields, limits?: Parameters<typeof storeNewOrder>[0]['limits']) =>
  storeNewOrder({ payload: shop.payload, fields, addressFor: (i) => `address-${i}`, limits })

const storedId = async (fields: NewOrderFields) => {
  const stored = await store(fields)
  if (!stored || !('orderId' in stored)) throw new Error('the order was not stored')
  return stored.orderId
}

describe('the database primitives on PostgreSQL', () => {
  it('runs on the PostgreSQL adapter', () => {
    expect(engineOf(shop.payload)).toBe('postgres')
  })

  it('sells the last copies exactly once to many concurrent reservations', async () => {
    const book = await createPrintedBook(shop.payload, { name: 'Three left', stock: 3 })
    const taken = await many(40, () => reserveStock({ payload: shop.payload, productId: book }))
    expect(taken.filter(Boolean)).toHaveLength(3)
    expect(await stockOf(book)).toBe(0)
    await shop.payload.update({
      collection: slugs.products,
      id: book,
      data: { isAvailable: false, currentStock: 5, totalStock: 5 },
    })
    expect(await reserveStock({ payload: shop.payload, productId: book })).toBe(false)
    expect(await stockOf(book)).toBe(5)
  })

  it('gives an order its copy back exactly once, and takes it again exactly once', async () => {
    const book = await createPrintedBook(shop.payload, { name: 'Back and forth', stock: 4 })
    const orderId = await storedId(newOrder(book))
    expect(await stockOf(book)).toBe(3)

    const released = await many(12, () =>
      releaseReservedStock({ payload: shop.payload, orderId, productId: book }),
    )
    expect(released.filter(Boolean)).toHaveLength(1)
    expect(await stockOf(book)).toBe(4)
    expect((await getOrder(shop.payload, orderId)).stockReleasedAt).toBeTruthy()

    const retaken = await many(12, () =>
      reserveStockForOrder({ payload: shop.payload, orderId, productId: book }),
    )
    expect(retaken.filter(Boolean)).toHaveLength(1)
    expect(await stockOf(book)).toBe(3)
    expect((await getOrder(shop.payload, orderId)).stockReleasedAt ?? null).toBeNull()

    // Round after round, each way: one copy moves each time, never two.
    for (let round = 0; round < 10; round++) {
      const back = await many(16, () =>
        releaseReservedStock({ payload: shop.payload, orderId, productId: book }),
      )
      const again = await many(16, () =>
        reserveStockForOrder({ payload: shop.payload, orderId, productId: book }),
      )
      expect([back.filter(Boolean).length, again.filter(Boolean).length]).toEqual([1, 1])
    }
    expect(await stockOf(book)).toBe(3)
  })

  it("writes inside the request's transaction: rolled back with it, committed with it", async () => {
    const payload = shop.payload
    const book = await createPrintedBook(payload, { name: 'In a transaction', stock: 2 })
    const orderId = await storedId(newOrder(book))
    const inTransaction = async (finish: typeof commitTransaction) => {
      const req = await createLocalReq({}, payload)
      expect(await initTransaction(req)).toBe(true)
      expect(await releaseReservedStock({ payload, orderId, productId: book, req })).toBe(true)
      // Not yet visible outside the transaction.
      expect(await stockOf(book)).toBe(1)
      await finish(req)
    }
    await inTransaction(killTransaction)
    expect(await stockOf(book)).toBe(1)
    expect((await getOrder(payload, orderId)).stockReleasedAt ?? null).toBeNull()
    await inTransaction(commitTransaction)
    expect(await stockOf(book)).toBe(2)
    expect((await getOrder(payload, orderId)).stockReleasedAt).toBeTruthy()

    // The Orders status seam releases the copy in the change's own transaction.
    const expiring = await storedId(newOrder(book))
    expect(await stockOf(book)).toBe(1)
    await payload.update({ collection: slugs.orders, id: expiring, data: { status: 'EXPIRED' } })
    expect(await stockOf(book)).toBe(2)
    expect((await getOrder(payload, expiring)).stockReleasedAt).toBeTruthy()
  })

  it('takes no copy for an order that holds one, nor for a book with none left', async () => {
    const book = await createPrintedBook(shop.payload, { name: 'Last one', stock: 1 })
    const orderId = await storedId(newOrder(book))
    expect(await reserveStockForOrder({ payload: shop.payload, orderId, productId: book })).toBe(
      false,
    )
    expect(await releaseReservedStock({ payload: shop.payload, orderId, productId: book })).toBe(
      true,
    )
    await reserveStock({ payload: shop.payload, productId: book })
    expect(await reserveStockForOrder({ payload: shop.payload, orderId, productId: book })).toBe(
      false,
    )
    // Nothing changed: the order still holds no copy and the shelf is still empty.
    expect((await getOrder(shop.payload, orderId)).stockReleasedAt).toBeTruthy()
    expect(await stockOf(book)).toBe(0)
  })

  it('gives every concurrent claimant its own address index, none skipped', async () => {
    const indexes = await many(60, () => claimAddressIndex({ payload: shop.payload }))
    const sorted = [...indexes].sort((a, b) => a - b)
    expect(new Set(indexes).size).toBe(60)
    expect(sorted[59]! - sorted[0]!).toBe(59)
    const counter = await postgres(shop.payload).query(
      'SELECT value FROM counters WHERE name = $1',
      [ADDRESS_INDEX_COUNTER],
    )
    expect(Number(counter.rows[0]?.value)).toBe(sorted[59]! + 1)
  })

  it('gives a lease to exactly one of many concurrent claimants, with epochs as documented', async () => {
    const payload = shop.payload
    const name = 'pg-lease'
    const claims = await many(16, (i) =>
      claimLease({ payload, name, holder: `worker-${i}`, ttlMs: 60_000 }),
    )
    const winners = claims.flatMap((epoch, i) => (epoch === null ? [] : [{ i, epoch }]))
    expect(winners).toHaveLength(1)
    expect(winners[0]!.epoch).toBe(1)
    const holder = `worker-${winners[0]!.i}`
    const other = holder === 'worker-0' ? 'worker-1' : 'worker-0'

    // A renewal keeps the epoch; another holder waits while it runs.
    expect(await claimLease({ payload, name, holder, ttlMs: 60_000 })).toBe(1)
    expect(await claimLease({ payload, name, holder: other, ttlMs: 60_000 })).toBeNull()

    // Released: the next holder starts the next epoch; the same holder after a lapse too.
    await releaseLease({ payload, name, holder })
    expect(await claimLease({ payload, name, holder: other, ttlMs: -1 })).toBe(2)
    expect(await claimLease({ payload, name, holder: other, ttlMs: 60_000 })).toBe(3)

    // A lapsed lease taken over by many at once: one of them, one epoch further.
    await claimLease({ payload, name, holder: other, ttlMs: -1 })
    const takeOvers = await many(16, (i) =>
      claimLease({ payload, name, holder: `standby-${i}`, ttlMs: 60_000 }),
    )
    expect(takeOvers.filter((e) => e !== null)).toEqual([4])
  })

  it('counts concurrent rate-limit hits exactly, in one window', async () => {
    const hit = (key: string, windowMs = 60_000, delta: 1 | -1 = 1) =>
      countRateLimitHit({ payload: shop.payload, key, windowMs, delta })
    const results = await many(50, () => hit('pg-burst'))
    expect(results.map((r) => r.hits).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    )
    expect(new Set(results.map((r) => r.resetAt.getTime())).size).toBe(1)

    expect((await hit('pg-skip')).hits).toBe(1)
    expect((await hit('pg-skip', 60_000, -1)).hits).toBe(0)
    expect((await hit('pg-skip', 60_000, -1)).hits).toBe(0)

    // A window that has ended starts afresh, and a sweep forgets it.
    await hit('pg-ended', -1)
    await hit('pg-ended', -1)
    const fresh = await hit('pg-ended', 60_000)
    expect(fresh.hits).toBe(1)
    expect(fresh.resetAt.getTime()).toBeGreaterThan(Date.now())
    await hit('pg-swept', -1)
    await sweepRateLimits({ payload: shop.payload, before: new Date() })
    const left = await shop.payload.find({
      collection: slugs.rateLimits,
      where: { key: { in: ['pg-swept', 'pg-ended'] } },
    })
    expect(left.docs.map((d) => d.key)).toEqual(['pg-ended'])
    await resetRateLimit({ payload: shop.payload, key: 'pg-ended' })
    expect((await hit('pg-ended')).hits).toBe(1)
  })

  it("counts one turn's rate-limit hits in one statement, each key's in the order they came", async () => {
    // A rush's checkouts each count a hit: a statement (a transaction) each was one of
    // checkout's two commits per order on PostgreSQL.
    const hit = (key: string) =>
      countRateLimitHit({ payload: shop.payload, key, windowMs: 60_000, delta: 1 })
    const watch = watchStatements(shop.payload)
    const first = await Promise.all(
      ['pg-turn-b', 'pg-turn-a', 'pg-turn-b', 'pg-turn-a', 'pg-turn-b'].map(hit),
    ).finally(() => watch.restore())
    expect(watch.statements.filter((sql) => sql.includes('rate_limits'))).toHaveLength(1)
    expect(first.map((r) => r.hits)).toEqual([1, 1, 2, 2, 3])
    // The next turn goes on from the counts the last one left; a hit taken back goes alone.
    const next = await Promise.all([hit('pg-turn-a'), hit('pg-turn-b')])
    expect(next.map((r) => r.hits)).toEqual([3, 4])
    const back = await countRateLimitHit({
      payload: shop.payload,
      key: 'pg-turn-a',
      windowMs: 60_000,
      delta: -1,
    })
    expect(back.hits).toBe(2)
  })

  it('gives each concurrent sign-in attempt on one account a turn of its own', async () => {
    const spacing = {
      freeFailures: 1,
      baseDelayMs: 1_000,
      maxDelayMs: 8_000,
      maxWaitMs: 60_000,
      forgetAfterMs: 600_000,
    }
    const now = Date.now()
    const key = 'signin:pg@example.com'
    const turns = await many(5, () =>
      reserveSignInTurn({ payload: shop.payload, key, spacing, now }),
    )
    const waits = turns.map((t) => ('waitMs' in t ? t.waitMs : -1)).sort((a, b) => a - b)
    // Failures 0..4: free, then 1 s, 2 s, 4 s, 8 s after the turn before.
    expect(waits).toEqual([0, 1_000, 3_000, 7_000, 15_000])
    const tooLong = await reserveSignInTurn({
      payload: shop.payload,
      key,
      spacing: { ...spacing, maxWaitMs: 10_000 },
      now,
    })
    expect(tooLong).toEqual({ retryAfterMs: 15_000 + 8_000 })

    await clearSignInTurns({ payload: shop.payload, key })
    expect(await reserveSignInTurn({ payload: shop.payload, key, spacing, now })).toEqual({
      waitMs: 0,
    })
  })

  it('consumes download uses atomically: never beyond the limit, expired and unknown told apart', async () => {
    const book = await createPrintedBook(shop.payload, { name: 'A download', stock: 2 })
    const orderId = await storedId(newOrder(book))
    const token = (tokenHash: string, expiresAt: Date) =>
      shop.payload.create({
        collection: slugs.downloadTokens,
        data: {
          tokenHash,
          tokenSealed: 'sealed',
          order: orderId,
          product: book,
          expiresAt: expiresAt.toISOString(),
          maxUses: 3,
          uses: 0,
        },
      })
    const live = await token('pg-live', new Date(Date.now() + 60_000))
    await token('pg-expired', new Date(Date.now() - 1_000))

    const uses = await many(20, () =>
      consumeDownloadUse({ payload: shop.payload, tokenHash: 'pg-live' }),
    )
    const ok = uses.filter((u) => u.ok)
    expect(ok).toHaveLength(3)
    expect(ok[0]).toEqual({ ok: true, tokenId: live.id, orderId, productId: book })
    expect(uses.filter((u) => !u.ok)).toEqual(
      Array.from({ length: 17 }, () => ({ ok: false, reason: 'used-up' })),
    )
    expect(await consumeDownloadUse({ payload: shop.payload, tokenHash: 'pg-expired' })).toEqual({
      ok: false,
      reason: 'expired',
    })
    expect(await consumeDownloadUse({ payload: shop.payload, tokenHash: 'pg-none' })).toEqual({
      ok: false,
      reason: 'unknown',
    })
  })

  it('stores concurrent new orders within the open-order limits and the stock', async () => {
    const book = await createPrintedBook(shop.payload, { name: 'Hoarded', stock: 50 })
    const limits = { maxOpenOrdersPerClient: 100, maxOpenOrdersPerEmail: 3 }
    const email = 'hoarder@example.com'
    const outcomes = await many(12, (i) =>
      store(newOrder(book, { userEmail: email, clientKey: `hoarder-${i}` }), limits),
    )
    const stored = outcomes.filter((o) => o && 'orderId' in o)
    expect(stored).toHaveLength(3)
    expect(outcomes.filter((o) => o && 'limited' in o)).toHaveLength(9)
    expect(await stockOf(book)).toBe(47)
    const counts = await countWaitingOrders({
      payload: shop.payload,
      limits,
      clientKey: 'hoarder-0',
      email,
    })
    expect(counts.byEmail).toBe(3)

    const last = await createPrintedBook(shop.payload, { name: 'One copy', stock: 1 })
    const rush = await many(16, () => store(newOrder(last)))
    const sold = rush.filter((o) => o && 'orderId' in o) as { orderId: string }[]
    expect(sold).toHaveLength(1)
    expect(rush.filter((o) => o === null)).toHaveLength(15)
    const order = await getOrder(shop.payload, sold[0]!.orderId)
    expect(order.paymentAddress).toBe(`address-${order.addressIndex}`)
    expect(await stockOf(last)).toBe(0)
  })

  it('stores nothing, and spends no index, when the address cannot be derived', async () => {
    const book = await createPrintedBook(shop.payload, { name: 'No address', stock: 1 })
    const before = await claimAddressIndex({ payload: shop.payload })
    await expect(
      storeNewOrder({
        payload: shop.payload,
        fields: newOrder(book),
        addressFor: () => {
          throw new Error('no address')
        },
      }),
    ).rejects.toThrow('no address')
    expect(await stockOf(book)).toBe(1)
    expect(await claimAddressIndex({ payload: shop.payload })).toBe(before + 1)
  })

  it("reads checkout's product as Payload reads it, with the buyer's waiting orders", async () => {
    const book = await createPrintedBook(shop.payload, { name: 'Read me', stock: 2, priceEUR: 7.5 })
    await storedId(newOrder(book, { userEmail: 'reader@example.com', clientKey: 'reader' }))
    const limits = { maxOpenOrdersPerClient: 5, maxOpenOrdersPerEmail: 5 }
    const read = await productForCheckout(
      shop.payload,
      String(book),
      waitingOrdersColumns({ limits, clientKey: 'reader', email: 'reader@example.com' }),
    )
    const payloads = await shop.payload.findByID({ collection: slugs.products, id: book })
    expect(read).toMatchObject({
      id: payloads.id,
      name: payloads.name,
      type: payloads.type,
      priceEUR: payloads.priceEUR,
      currentStock: payloads.currentStock,
      isAvailable: payloads.isAvailable,
      deletedAt: null,
    })
    expect(waitingCountsOf(read!.also!)).toEqual({ byClient: 1, byEmail: 1 })
    expect(await productForCheckout(shop.payload, '999999')).toBeNull()

    const deletedAt = new Date('2026-11-01T10:00:00.123Z').toISOString()
    await postgres(shop.payload).query('UPDATE products SET deleted_at = $1 WHERE id = $2', [
      deletedAt,
      book,
    ])
    expect((await productForCheckout(shop.payload, String(book)))?.deletedAt).toBe(deletedAt)
  })

  it('finds orders by their words literally, ignoring case', async () => {
    const book = await createPrintedBook(shop.payload, { name: 'Searched', stock: 3 })
    const plain = await storedId(newOrder(book, { userEmail: 'find_me@example.com' }))
    await storedId(newOrder(book, { userEmail: 'findxme@example.com' }))
    expect(await ordersHoldingLiterally(shop.payload, 'FIND_ME')).toEqual([plain])
    expect(await ordersHoldingLiterally(shop.payload, '%')).toEqual([])
    expect(await ordersHoldingLiterally(shop.payload, plain.slice(0, 13).toUpperCase())).toEqual([
      plain,
    ])
    // Every word in one column: the e-mail holds both, no column holds the id and the e-mail.
    expect(await ordersHoldingLiterally(shop.payload, 'find_me example.com')).toEqual([plain])
    expect(await ordersHoldingLiterally(shop.payload, `${plain.slice(0, 13)} find_me`)).toEqual([])
  })

  it("changes the catalogue's version when stock moves or a product changes, and only then", async () => {
    const read = await openVersionReader(shop.payload)
    expect(read).not.toBeNull()
    const first = await read!()
    expect(await read!()).toBe(first)
    const book = await createPrintedBook(shop.payload, { name: 'Versioned', stock: 2 })
    const added = await read!()
    expect(added).not.toBe(first)
    await reserveStock({ payload: shop.payload, productId: book })
    const sold = await read!()
    expect(sold).not.toBe(added)
    expect(await read!()).toBe(sold)
  })
})
