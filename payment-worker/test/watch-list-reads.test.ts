import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import type { PaymentsHarness } from './payments/support'
import { createOrder, productIdOf, startPaymentsHarness } from './payments/support'

/**
 * The worker reads new orders between its calls to the chain (a payment made right after
 * checkout is looked for at once). Each read looks back a few seconds before the newest order it
 * knows (an order committed after a later one is not missed); the orders it watches already are
 * read again only every few seconds. After a rush of a thousand checkouts every read returned the whole rush, several
 * times a second, and the worker's thread spent the rush's detection in Payload reading them.
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

/** The orders each read of new orders returned during `run` (reads by `createdAt`). */
async function newOrderReadsDuring(run: () => Promise<void>) {
  const find = vi.spyOn(h.shop.payload, 'find')
  try {
    await run()
    const reads = find.mock.calls.flatMap(([args], i) =>
      args.collection === 'orders' && JSON.stringify(args.where ?? {}).includes('"createdAt"')
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
