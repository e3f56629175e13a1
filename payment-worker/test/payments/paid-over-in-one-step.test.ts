import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { armFault, slugs } from '@shop/cms/engine'
import type { AdminClient } from '@shop/cms/testing'
import { signedInNewAdmin } from '@shop/cms/testing'
import type { AdminOrderDetail } from '@shop/domain'
import type { PaymentsHarness } from './support'
import {
  createOrder,
  getOrder,
  payInTestMode,
  payThenLoseUntilInvalid,
  productIdOf,
  startPaymentsHarness,
  waitFor,
  waitForStatus,
} from './support'

/**
 * A payment and the order's totals and flags change in one step, whichever path records it: the
 * owner's order view never lists a payment beside totals from before it. Each case holds the
 * worker just after it recorded the payment (the `after-record` fault point, awaited) and reads
 * the owner's view then; and a second case reads it as often as it can while the payment lands.
 */

let h: PaymentsHarness
let owner: AdminClient
let pdfId: number

beforeAll(async () => {
  h = await startPaymentsHarness({ env: { PAYMENT_MISSING_MINUTES: '0' } })
  owner = await signedInNewAdmin(h.shop, {
    email: 'owner-one-step@example.com',
    password: 'one-step-password-1',
  })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
})

afterAll(async () => {
  await h?.close()
})

async function ownersView(orderId: string): Promise<AdminOrderDetail> {
  const response = await owner.request('GET', `/orders/${orderId}`)
  expect(response.status).toBe(200)
  return (await response.json()) as AdminOrderDetail
}

/** The view agrees with itself: its totals and flags are those of the payments it lists. */
function expectTotalsOfItsPayments(view: AdminOrderDetail) {
  const counted = view.payments.filter((p) => !p.invalidatedAt)
  const received = counted.reduce((sum, p) => sum + p.satoshis, 0)
  expect({
    payments: view.payments.map((p) => `${p.txid.slice(0, 8)}:${p.satoshis}`),
    received: view.amountSatoshiReceived,
    paidOver: Boolean(view.flags?.paidOver),
  }).toEqual({
    payments: view.payments.map((p) => `${p.txid.slice(0, 8)}:${p.satoshis}`),
    received,
    paidOver: received > view.amountSatoshiExpected,
  })
}

/**
 * What the owner's view showed of `orderId` each time the worker stood just after recording a
 * payment for it, while `act` runs and until `done` says it is over.
 */
async function viewsAfterRecording(
  orderId: string,
  act: () => Promise<void>,
  done: () => Promise<boolean>,
): Promise<AdminOrderDetail[]> {
  const views: AdminOrderDetail[] = []
  const disarm = armFault('after-record', async (id) => {
    if (id === orderId) views.push(await ownersView(orderId))
  })
  try {
    await act()
    await waitFor(done, { timeoutMs: 15_000 })
  } finally {
    disarm()
  }
  return views
}

async function paidOrder(): Promise<string> {
  const orderId = await createOrder(h.shop, pdfId)
  await payInTestMode(h.shop, orderId)
  h.simulator.state.mine(1)
  await waitForStatus(h.shop.payload, orderId, 'PAID', 15_000)
  return orderId
}

/** The wallet pays the address again (a retry): a little more after the order was paid. */
const payAgain = (orderId: string) => payInTestMode(h.shop, orderId, '0.001')

const paidOverOn = async (orderId: string) =>
  Boolean((await getOrder(h.shop.payload, orderId)).flags?.paidOver)

describe('a payment after PAID', () => {
  it('is never shown by the owner view before the total and paidOver that go with it (a look)', async () => {
    const orderId = await paidOrder()
    const views = await viewsAfterRecording(
      orderId,
      async () => void (await payAgain(orderId)),
      () => paidOverOn(orderId),
    )
    expect(views.length).toBeGreaterThan(0)
    for (const view of views) expectTotalsOfItsPayments(view)
    const after = await ownersView(orderId)
    expect(after.payments.filter((p) => !p.invalidatedAt)).toHaveLength(2)
    expect(after.flags?.paidOver).toBe(true)
  })

  it('is never shown before its total when the push stream carries it', async () => {
    const orderId = await paidOrder()
    const order = await getOrder(h.shop.payload, orderId)
    const views = await viewsAfterRecording(
      orderId,
      async () => {
        const txid = await payAgain(orderId)
        h.worker.pushed.transaction({
          txid,
          addresses: [order.paymentAddress],
          hex: h.simulator.state.getHex(txid),
        })
      },
      () => paidOverOn(orderId),
    )
    expect(views.length).toBeGreaterThan(0)
    for (const view of views) expectTotalsOfItsPayments(view)
  })

  it('is never shown before its total when several orders are settled together', async () => {
    const first = await paidOrder()
    const second = await paidOrder()
    const views = await viewsAfterRecording(
      first,
      async () => {
        await payAgain(first)
        await payAgain(second)
        h.simulator.state.mine(1)
      },
      async () => (await paidOverOn(first)) && (await paidOverOn(second)),
    )
    expect(views.length).toBeGreaterThan(0)
    for (const view of views) expectTotalsOfItsPayments(view)
  })

  it('reads as one moment however often the owner looks while it lands', async () => {
    const orderId = await paidOrder()
    let landed = false
    const views: AdminOrderDetail[] = []
    const polling = (async () => {
      while (!landed) views.push(await ownersView(orderId))
    })()
    await payAgain(orderId)
    await waitFor(() => paidOverOn(orderId), { timeoutMs: 15_000 })
    views.push(await ownersView(orderId))
    landed = true
    await polling
    expect(views.some((v) => v.payments.length === 2)).toBe(true)
    for (const view of views) expectTotalsOfItsPayments(view)
  })
})

describe('a payment restored after its order expired', () => {
  it('is shown with the order it revives, never before (revival)', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    await payThenLoseUntilInvalid(h, orderId)
    await h.shop.payload.update({
      collection: slugs.orders,
      id: orderId,
      data: { gatewayExpiresAt: new Date(Date.now() - 1_000).toISOString() },
    })
    await waitForStatus(h.shop.payload, orderId, 'EXPIRED', 15_000)
    const views = await viewsAfterRecording(
      orderId,
      async () => {
        h.simulator.clearFaults()
        h.simulator.state.mine(1)
      },
      async () => (await getOrder(h.shop.payload, orderId)).status === 'PAID',
    )
    expect(views.length).toBeGreaterThan(0)
    for (const view of views) expectTotalsOfItsPayments(view)
    expect((await ownersView(orderId)).amountSatoshiReceived).toBeGreaterThan(0)
  })
})
