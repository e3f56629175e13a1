import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import { createStaff } from '@shop/cms/testing'
import { answeredWithout5xx, payloadWritesBesideCheckouts } from '@shop/cms/testing'
import { productIdOf } from '@shop/payment-worker/testing'
import type { TestShop } from '@shop/cms/testing'
import { startTestShop } from '@shop/cms/testing'
import { shopEngine } from './support/engine'
import { fmt, hardening, report } from './support/settings'

/**
 * Payload's own writes beside the shop's (decision 008), as an attack: anonymous and signed-in
 * Payload auth, preference and lock calls (each makes Payload write on its own) fired in waves
 * beside checkouts. Nothing may hang, answer 5xx or lose an order. On SQLite those writes queue
 * behind one writer; on PostgreSQL (`TEST_DB_ENGINE=postgres`) they take connections from the pool
 * the checkouts' own transactions use.
 */

const OWNER = { email: 'hardening-writer@example.com', password: 'Quartz-ledger-owner-7193' }
const ROUNDS = Math.max(3, Math.round(hardening.fuzzRuns / 10))

let shop: TestShop
let productId: number
let ownerCookie: string

beforeAll(async () => {
  shop = await startTestShop({ withCms: true, env: { ORDER_CREATE_RATE_LIMIT: '100000' } })
  productId = await productIdOf(shop.payload, 'PHYSICAL')
  await shop.payload.update({
    collection: slugs.products,
    id: productId,
    data: { currentStock: 10_000, totalStock: 10_000 },
  })
  await createStaff({ payload: shop.payload, ...OWNER, role: 'admin' })
  const response = await fetch(`${shop.url}/cms/api/staff/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  })
  expect(response.status).toBe(200)
  ownerCookie = response.headers.getSetCookie()[0]!.split(';')[0]!
})

afterAll(async () => {
  await shop?.close()
})

describe("Payload's own writes beside checkouts", () => {
  it('never hangs, answers 5xx or loses an order', async () => {
    const result = await payloadWritesBesideCheckouts({
      shop,
      productId,
      owner: OWNER,
      ownerCookie,
      rounds: ROUNDS,
    })
    const bad = result.answers.filter((a) => !answeredWithout5xx(a))
    const refused = result.checkouts.filter((c) => c.status !== 201)
    report(
      `payload writes (${shopEngine(shop.payload)}): ${fmt(result.answers.length)} auth/preference/lock calls beside ${fmt(result.checkouts.length)} checkouts in ${ROUNDS} waves; ${bad.length} hung or 5xx, ${refused.length} checkouts refused, ${result.lost} orders lost`,
    )
    expect(bad).toEqual([])
    expect(refused).toEqual([])
    expect(result.lost).toBe(0)
  })
})
