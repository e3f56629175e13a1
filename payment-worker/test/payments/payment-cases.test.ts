import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { payFromTestWallet } from '@shop/chain/simulator'
import { slugs } from '@shop/cms/engine'
import { releaseReservedStock } from '@shop/cms/testing'
import type { DownloadToken } from '@shop/cms/engine'
import type { PaymentsHarness } from './support'
import { paymentsOf as paymentsOfOrder } from './support'
import {
  api,
  createOrder,
  getOrder,
  payInTestMode,
  productIdOf,
  SHIPPING,
  startPaymentsHarness,
  waitFor,
  waitForStatus,
} from './support'

let h: PaymentsHarness
let pdfId: number
let printedId: number

beforeAll(async () => {
  h = await startPaymentsHarness()
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
  printedId = await productIdOf(h.shop.payload, 'PHYSICAL')
})

afterAll(async () => {
  await h?.close()
})

const pay = (orderId: string, amountBSV?: string) => payInTestMode(h.shop, orderId, amountBSV)
const mine = () => api(h.shop, '/api/test-mode/mine', { body: {} })
const paymentsOf = (orderId: string) => paymentsOfOrder(h.shop.payload, orderId)
const stockOf = async (id: number) =>
  (await h.shop.payload.findByID({ collection: slugs.products, id })).currentStock

// 14.90 EUR at 40 EUR/BSV = 0.3725 BSV due.
describe('payments in parts', () => {
  it('counts a payment in two parts: UNDERPAID, then PAYMENT_DETECTED, then PAID', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    await pay(orderId, '0.2')
    await waitForStatus(h.shop.payload, orderId, 'UNDERPAID')
    expect((await api(h.shop, `/api/orders/${orderId}/payment-status`)).body).toMatchObject({
      status: 'UNDERPAID',
      amountDueBSV: '0.17250000',
    })
    // The pay screen asks for what is left, not the whole amount again.
    expect((await api(h.shop, `/api/orders/${orderId}/info`)).body).toMatchObject({
      amountBSV: '0.37250000',
      amountReceivedBSV: '0.20000000',
      amountDueBSV: '0.17250000',
    })
    await pay(orderId) // the remaining 0.1725
    const detected = await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    expect(detected.amountSatoshiReceived).toBe(37_250_000)
    await mine()
    const paid = await waitForStatus(h.shop.payload, orderId, 'PAID')
    expect(paid.flags).toMatchObject({ paidOver: false, paidLate: false, paidPartial: false })
    expect(await paymentsOf(orderId)).toHaveLength(2)
  })

  it('accepts a top-up after a confirmed underpayment', async () => {
    const orderId = await createOrder(h.shop, printedId)
    await pay(orderId, '0.5')
    await waitForStatus(h.shop.payload, orderId, 'UNDERPAID')
    await mine()
    await waitFor(
      async () =>
        (await paymentsOf(orderId)).every((p) => p.blockHeight) &&
        (await paymentsOf(orderId)).length === 1,
    )
    expect((await getOrder(h.shop.payload, orderId)).status).toBe('UNDERPAID')
    await pay(orderId)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    await mine()
    await waitForStatus(h.shop.payload, orderId, 'PROCESSING_DELIVERY')
  })

  it('records an overpayment and flags it for the owner', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    await pay(orderId, '1')
    await mine()
    const paid = await waitForStatus(h.shop.payload, orderId, 'PAID')
    expect(paid.amountSatoshiReceived).toBe(100_000_000)
    expect(paid.flags).toMatchObject({ paidOver: true })
  })
})

describe('money sent after the order is paid', () => {
  it('records it on the order and flags it, without moving the status or fulfilling again', async () => {
    const pdfOrder = await createOrder(h.shop, pdfId)
    const printedOrder = await createOrder(h.shop, printedId)
    const firstTxid = await pay(pdfOrder)
    await pay(printedOrder)
    await mine()
    await waitForStatus(h.shop.payload, pdfOrder, 'PAID')
    await waitForStatus(h.shop.payload, printedOrder, 'PROCESSING_DELIVERY')
    await waitFor(async () => (await getOrder(h.shop.payload, pdfOrder)).fulfilledAt)

    // The buyer's wallet sends again (a retry, a double tap): 0.1 BSV more to each address.
    await pay(pdfOrder, '0.1')
    await pay(printedOrder, '0.1')
    for (const [id, status] of [
      [pdfOrder, 'PAID'],
      [printedOrder, 'PROCESSING_DELIVERY'],
    ] as const) {
      const flagged = await waitFor(async () => {
        const order = await getOrder(h.shop.payload, id)
        return order.flags?.paidOver ? order : null
      })
      expect(flagged.status).toBe(status)
      expect(flagged.amountSatoshiReceived).toBe(flagged.amountSatoshiExpected + 10_000_000)
      expect(await paymentsOf(id)).toHaveLength(2)
    }
    expect((await getOrder(h.shop.payload, pdfOrder)).paymentTxid).toBe(firstTxid)
    const tokens = await h.shop.payload.find({
      collection: slugs.downloadTokens,
      where: { order: { equals: pdfOrder } },
    })
    expect(tokens.totalDocs).toBe(1)

    // Confirmed later: the extra payment's block is recorded, the status stays.
    await mine()
    await waitFor(async () => (await paymentsOf(printedOrder)).every((p) => p.blockHeight))
    expect((await getOrder(h.shop.payload, printedOrder)).status).toBe('PROCESSING_DELIVERY')
  })
})

describe('expiry', () => {
  it('expires an unpaid order, releases its copy once, and records a late payment without reviving it', async () => {
    const before = await stockOf(printedId)
    const orderId = await createOrder(h.shop, printedId)
    expect(await stockOf(printedId)).toBe(before - 1)
    await h.shop.payload.update({
      collection: slugs.orders,
      id: orderId,
      data: { gatewayExpiresAt: new Date(Date.now() - 1000).toISOString() },
    })
    const expired = await waitForStatus(h.shop.payload, orderId, 'EXPIRED')
    expect(expired.stockReleasedAt).toBeTruthy()
    expect(await stockOf(printedId)).toBe(before)
    // A second release (a restarted worker, a second worker) changes nothing.
    expect(
      await releaseReservedStock({ payload: h.shop.payload, orderId, productId: printedId }),
    ).toBe(false)
    expect(await stockOf(printedId)).toBe(before)

    await pay(orderId)
    const flagged = await waitFor(async () => {
      const order = await getOrder(h.shop.payload, orderId)
      return order.flags?.paidLate ? order : null
    })
    expect(flagged.status).toBe('EXPIRED')
    expect(flagged.amountSatoshiReceived).toBe(flagged.amountSatoshiExpected)
    const [late] = await paymentsOf(orderId)
    expect(late?.late).toBe(true)
    await mine()
    await waitFor(async () => (await paymentsOf(orderId))[0]?.blockHeight)
    expect((await getOrder(h.shop.payload, orderId)).status).toBe('EXPIRED')
    expect(await stockOf(printedId)).toBe(before)
  })

  it('keeps a detected full payment waiting for its confirmation past the expiry', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    await pay(orderId)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    await h.shop.payload.update({
      collection: slugs.orders,
      id: orderId,
      data: { gatewayExpiresAt: new Date(Date.now() - 1000).toISOString() },
    })
    await h.worker.nextPass()
    await h.worker.nextPass()
    expect((await getOrder(h.shop.payload, orderId)).status).toBe('PAYMENT_DETECTED')
    await mine()
    await waitForStatus(h.shop.payload, orderId, 'PAID')
  })
})

describe('a failing chain source', () => {
  it('retries with backoff and detects the payment once the source recovers', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    const order = await getOrder(h.shop.payload, orderId)
    h.simulator.setOutage(true)
    const failuresBefore = h.logs.filter((l) =>
      l.msg.startsWith('payment worker pass failed'),
    ).length
    await waitFor(
      async () =>
        h.logs.filter((l) => l.msg.startsWith('payment worker pass failed')).length >=
        failuresBefore + 2,
    )
    // Pay while the API is down (straight into the simulator's mempool).
    const direct = {
      getTipHeight: async () => h.simulator.state.height,
      getAddressHistories: async () => new Map(),
      getTransactionStatus: async (txid: string) =>
        h.simulator.state.status(txid) ? ('mempool' as const) : ('unknown' as const),
      getTransactionHex: async (txid: string) => h.simulator.state.getHex(txid)!,
      getBlockTime: async (height: number) => new Date(h.simulator.state.blockTime(height)! * 1000),
      broadcast: async (hex: string) => h.simulator.state.submit(hex),
    }
    await payFromTestWallet({
      chain: direct,
      wocUrl: h.simulator.wocUrl,
      network: 'test',
      address: order.paymentAddress,
      satoshis: order.amountSatoshiExpected,
    })
    expect((await getOrder(h.shop.payload, orderId)).status).toBe('AWAITING_PAYMENT')
    h.simulator.setOutage(false)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED', 40_000)
    await waitFor(async () => h.logs.some((l) => l.msg === 'payment worker recovered'))
  })
})

describe('order creation rules', () => {
  const create = (body: Record<string, unknown>) =>
    api(h.shop, '/api/orders/create', {
      body: { productId: pdfId, userEmail: 'buyer@example.com', tokenAddress: null, ...body },
    })

  it('refuses a bad email, a bad token address and missing shipping details with clear messages', async () => {
    expect(await create({ userEmail: 'nope' })).toMatchObject({
      status: 400,
      body: { success: false, error: 'Please enter a valid email address.' },
    })
    const bad = await create({ tokenAddress: '1BvgsfsZQVtkLS69NvGF8rw6NZW2ShJQHs' })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatch(/paymail/)
    const noShipping = await create({ productId: printedId, ...SHIPPING, shippingCity: ' ' })
    expect(noShipping).toMatchObject({ status: 400, body: { success: false } })
    expect(noShipping.body.error).toMatch(/city/)
  })

  it('accepts a paymail or a P2PKH token address, trimmed, and stores the price and rate', async () => {
    const orderId = await createOrder(h.shop, pdfId, { tokenAddress: '  alice@handcash.io ' })
    const order = await getOrder(h.shop.payload, orderId)
    expect(order).toMatchObject({
      tokenAddress: 'alice@handcash.io',
      priceAtPurchaseUSD: 14.9,
      bsvUsdRateAtPurchase: 40,
      amountSatoshiExpected: 37_250_000,
    })
    expect(new Date(order.gatewayExpiresAt).getTime()).toBeGreaterThan(Date.now() + 19 * 60_000)
    const p2pkh = await createOrder(h.shop, pdfId, {
      tokenAddress: '1BvgsfsZQVtkLS69NvGF8rw6NZW2ShJQHr',
    })
    expect((await getOrder(h.shop.payload, p2pkh)).addressIndex).toBeGreaterThan(order.addressIndex)
  })

  it('refuses out-of-stock, unavailable, deleted and unknown books', async () => {
    const make = (data: Record<string, unknown>) =>
      h.shop.payload.create({
        collection: slugs.products,
        data: {
          name: 'Edge',
          type: 'PHYSICAL',
          priceEUR: 5,
          totalStock: 1,
          currentStock: 1,
          isAvailable: true,
          ...data,
        },
      })
    const soldOut = await make({ currentStock: 0 })
    const hidden = await make({ isAvailable: false })
    const deleted = await make({ deletedAt: new Date().toISOString() })
    const body = (id: unknown) => ({ productId: id, ...SHIPPING })
    expect((await create(body(soldOut.id))).body).toEqual({
      success: false,
      error: 'This book is out of stock.',
    })
    expect((await create(body(hidden.id))).body).toEqual({
      success: false,
      error: 'This book is not available for sale.',
    })
    expect((await create(body(deleted.id))).body).toEqual({
      success: false,
      error: 'This book is no longer available.',
    })
    expect((await create(body(999999))).body).toEqual({
      success: false,
      error: 'This book is no longer available.',
    })
  })

  it('answers 404 for unknown orders', async () => {
    for (const path of ['info', 'payment-status']) {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
        expect(await api(h.shop, `/api/orders/${id}/${path}`)).toMatchObject({
          status: 404,
          body: { error: 'Order not found.' },
        })
      }
    }
  })

  it('serves the rate and the shop config', async () => {
    expect((await api(h.shop, '/api/bsv-price')).body).toEqual({ rate: 40 })
    expect((await api(h.shop, '/api/shop-config')).body).toEqual({
      testMode: true,
      explorerTxUrl: 'https://whatsonchain.com/tx/',
      network: 'test',
    })
  })
})

describe('download tokens', () => {
  let orderId: string
  let url: string
  beforeAll(async () => {
    orderId = await createOrder(h.shop, pdfId)
    await pay(orderId)
    await mine()
    await waitForStatus(h.shop.payload, orderId, 'PAID')
    url = String(
      await waitFor(
        async () => (await api(h.shop, `/api/orders/${orderId}/payment-status`)).body.downloadUrl,
      ),
    )
  })
  const tokenDoc = async () =>
    (
      await h.shop.payload.find({
        collection: slugs.downloadTokens,
        where: { order: { equals: orderId } },
      })
    ).docs[0] as DownloadToken

  it('never exceeds the use limit under concurrent requests', async () => {
    const token = await tokenDoc()
    expect(token.maxUses).toBe(5)
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${h.shop.url}${url}`).then(async (r) => (await r.arrayBuffer(), r.status)),
      ),
    )
    expect(statuses.filter((s) => s === 200)).toHaveLength(5)
    expect(statuses.filter((s) => s === 410)).toHaveLength(15)
    expect((await tokenDoc()).uses).toBe(5)
    const page = await fetch(`${h.shop.url}${url}`)
    expect(await page.text()).toContain('Download limit reached')
  })

  it('refuses an expired link with a clear page', async () => {
    const token = await tokenDoc()
    await h.shop.payload.update({
      collection: slugs.downloadTokens,
      id: token.id,
      data: { uses: 0, expiresAt: new Date(Date.now() - 1000).toISOString() },
    })
    const response = await fetch(`${h.shop.url}${url}`)
    expect(response.status).toBe(410)
    expect(response.headers.get('content-type')).toMatch(/text\/html/)
    expect(await response.text()).toContain('Download link expired')
  })

  it('answers 404 for an unknown token', async () => {
    for (const token of ['A'.repeat(43), 'short', '..%2F..%2Fetc']) {
      const response = await fetch(`${h.shop.url}/download/pdf/${token}`)
      expect(response.status).toBe(404)
      expect(await response.text()).toContain('Download link not found')
    }
  })
})
