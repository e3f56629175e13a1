import type { Where } from 'payload'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import { ORDER_STATUSES } from '@shop/domain'
import type { Order } from '@shop/cms/engine'
import { runSql } from '@shop/cms/testing'
import { isWatchedOrder, newWatchedOrdersWhere, watchedOrdersWhere } from '../src/watch/query'
import type { PaymentsHarness } from './payments/support'
import {
  createOrder,
  productIdOf,
  startPaymentsHarness,
  startWorkerByHand,
  simulatorClient,
  watchedOrderRow,
} from './payments/support'

/**
 * How the worker reads its watch list, which costs what the shop is doing, not what it holds:
 *
 * - New orders, between its calls to the chain (a payment made right after checkout is looked
 *   for at once). Each read looks back a few seconds before the newest order it knows (an order
 *   committed after a later one is not missed); the orders it watches already are read again only
 *   every few seconds. After a rush of a thousand checkouts every read returned the whole rush,
 *   several times a second, and the worker's thread spent the rush's detection reading them.
 * - Every minute, the orders changed since its last such read (an owner's change, an order
 *   leaving the late-watch window); every watched order only at start and hourly. A busy month
 *   keeps thousands of orders in the late-watch window, and reading them all every minute took
 *   the worker's thread for over a second each time.
 * - Its rule of which orders are watched is written three ways (a test of one order, the query
 *   of all of them, the query of the new ones): they agree.
 */

const CROWD = 60
let h: PaymentsHarness
let pdfId: number

beforeAll(async () => {
  h = await startPaymentsHarness({ worker: false })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
})

afterAll(async () => {
  await h?.close()
})

/** The orders each read of orders `picked` returned during `run`. */
async function orderReadsDuring(
  run: () => Promise<void>,
  picked: (where: string) => boolean = () => true,
) {
  const find = vi.spyOn(h.shop.payload, 'find')
  try {
    await run()
    const reads = find.mock.calls.flatMap(([args], i) =>
      args.collection === 'orders' && picked(JSON.stringify(args.where ?? {}))
        ? [find.mock.results[i]!]
        : [],
    )
    const docs = await Promise.all(
      reads.map(async (result) => ((await result.value) as { docs: { id: string }[] }).docs),
    )
    return docs.map((found) => found.map((doc) => doc.id))
  } finally {
    find.mockRestore()
  }
}

/** The orders each read of new orders returned during `run` (reads by `createdAt`). */
const newOrderReadsDuring = (run: () => Promise<void>) =>
  orderReadsDuring(run, (where) => where.includes('"createdAt"'))

const DAY = 86_400_000
/** Orders expired in the last days, still watched for late payments. */
const LATE_WATCHED = 300

describe('the reads of new orders', () => {
  it('read a crowd of new orders once, then mostly only the orders placed since', async () => {
    const crowd = await Promise.all(
      Array.from({ length: CROWD }, (_, i) =>
        createOrder(h.shop, pdfId, { userEmail: `crowd${i}@example.com` }),
      ),
    )
    // The first pass watches them all (its read of every watched order).
    await h.worker.runOnce()

    // Read again (brought up to date) once in a while, not at every read.
    const again = await newOrderReadsDuring(() => h.worker.runOnce())
    expect(again.length).toBeGreaterThanOrEqual(3)
    expect(again.filter((ids) => ids.some((id) => crowd.includes(id))).length).toBeLessThanOrEqual(
      1,
    )

    const later = await createOrder(h.shop, pdfId, { userEmail: 'later@example.com' })
    const next = await newOrderReadsDuring(() => h.worker.runOnce())
    expect(next.flat()).toContain(later)
  })
})

describe("the minute's read of the watch list", () => {
  it('reads the orders changed since, not the whole late-watch window, and a change still reaches the worker', async () => {
    // A busy month leaves thousands of expired and paid orders in the late-watch window: read
    // whole every minute, they took the worker's thread for over a second each time.
    const now = Date.now()
    const late: string[] = []
    for (let i = 0; i < LATE_WATCHED; i += 1) {
      const row = watchedOrderRow({
        productId: pdfId,
        index: 5_000_000 + i,
        createdAt: now - DAY - i * 60_000,
        status: 'EXPIRED',
      })
      await runSql(h.shop.payload, row.sql, row.args)
      late.push(String(row.args[0]))
    }
    let offset = 0
    const worker = await startWorkerByHand(h, {
      chain: simulatorClient(h.simulator),
      settings: {},
      clock: () => Date.now() + offset,
    })
    try {
      const first = await orderReadsDuring(() => worker.runOnce())
      expect(first.flat()).toEqual(expect.arrayContaining(late))

      // The owner cancels one of them; 45 s later a buyer checks out (the worker reads the new
      // order at once); a minute after the first read the worker reads what changed.
      const cancelled = late[7]!
      await h.shop.payload.update({
        collection: 'orders',
        id: cancelled,
        data: { status: 'CANCELLED' },
        depth: 0,
      })
      const placed = watchedOrderRow({
        productId: pdfId,
        index: 5_900_000,
        createdAt: Date.now() + 45_000,
        status: 'AWAITING_PAYMENT',
      })
      await runSql(h.shop.payload, placed.sql, placed.args)
      offset += 45_000
      expect((await newOrderReadsDuring(() => worker.runOnce())).flat()).toContain(
        String(placed.args[0]),
      )
      offset += 16_000
      // (A look at due orders reads its batch by id: not a read of the watch list.)
      const minute = await orderReadsDuring(
        () => worker.runOnce(),
        (where) => /"(updatedAt|createdAt|gatewayExpiresAt)"/.test(where),
      )
      const read = minute.flat()
      expect(read).toContain(cancelled)
      expect(read.filter((id) => late.includes(id)).length).toBeLessThan(10)
    } finally {
      await worker.stop()
    }
  })
})

describe('which orders are watched', () => {
  it("the worker's rule, its query and its read of new orders agree on every status, inside and outside the window", async () => {
    const settings = { monitoringWindowHours: 24, lateWatchDays: 7 }
    const now = Date.now()
    const since = now - 365 * DAY
    const rows = ORDER_STATUSES.flatMap((status, i) =>
      [now - 3 * DAY, now - 8 * DAY].map((expiresAt, j) => ({
        status,
        expiresAt,
        row: watchedOrderRow({
          productId: pdfId,
          index: 6_000_000 + i * 2 + j,
          createdAt: expiresAt - 20 * 60_000,
          status,
        }),
      })),
    )
    for (const { row } of rows) await runSql(h.shop.payload, row.sql, row.args)
    const ids = rows.map(({ row }) => String(row.args[0]))
    const found = async (where: Where) =>
      (
        await h.shop.payload.find({
          collection: 'orders',
          where: { and: [where, { id: { in: ids } }] },
          depth: 0,
          pagination: false,
          select: { status: true },
        })
      ).docs.map((order) => (order as Order).id)
    const byRule = rows
      .filter(({ status, expiresAt }) => isWatchedOrder(status, expiresAt, now, settings))
      .map(({ row }) => String(row.args[0]))
    expect(byRule.length).toBeGreaterThan(0)
    expect(byRule.length).toBeLessThan(rows.length)
    expect((await found(watchedOrdersWhere(now, settings))).sort()).toEqual([...byRule].sort())
    expect((await found(newWatchedOrdersWhere(now, since, settings))).sort()).toEqual(
      [...byRule].sort(),
    )
  })
})
