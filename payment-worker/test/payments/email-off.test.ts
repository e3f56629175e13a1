import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import type { PaymentsHarness } from './support'
import {
  api,
  createOrder,
  productIdOf,
  startPaymentsHarness,
  waitFor,
  waitForStatus,
} from './support'

/**
 * E-mail turned off on purpose (EMAIL_DELIVERY=off): production without SMTP
 * refuses to start otherwise (cms/test/production-settings.test.ts). The shop still sells; the
 * messages wait in the outbox, never marked sent, for the day SMTP is set.
 */
let h: PaymentsHarness

beforeAll(async () => {
  h = await startPaymentsHarness({ env: { EMAIL_DELIVERY: 'off' } })
})

afterAll(async () => {
  await h?.close()
})

describe('e-mail turned off', () => {
  it('sells and delivers, and keeps every message pending in the outbox', async () => {
    const orderId = await createOrder(h.shop, await productIdOf(h.shop.payload, 'DIGITAL'))
    expect((await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })).status).toBe(
      200,
    )
    expect((await api(h.shop, '/api/test-mode/mine', { body: {} })).status).toBe(200)
    await waitForStatus(h.shop.payload, orderId, 'PAID')
    const outbox = await waitFor(async () => {
      const found = await h.shop.payload.find({
        collection: slugs.emailOutbox,
        where: { order: { equals: orderId } },
        depth: 0,
      })
      return found.docs.some((m) => m.kind === 'order-paid') ? found.docs : null
    })
    await h.worker.nextPass()
    await h.worker.nextPass()
    const after = await h.shop.payload.find({
      collection: slugs.emailOutbox,
      where: { order: { equals: orderId } },
      depth: 0,
    })
    expect(after.docs.length).toBe(outbox.length)
    expect(after.docs.map((m) => m.status)).toEqual(after.docs.map(() => 'pending'))
  })
})
